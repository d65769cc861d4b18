"""Gap-hunting round (issue 39, 2026-12-01): with generator=None, BucketBatchSampler shuffles each epoch with the global RNG at iteration time instead of making its own generator seeded from the global RNG once. Breaks: "if generator is None, make one seeded from the global RNG"."""
from course.grading.class_run.submissions import edited

CELLS = {"bucket_sampler_impl": edited("15-02", "bucket_sampler_impl", ('        if generator is None:\n            generator = torch.Generator()\n            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n        self.generator = generator', '        self.generator = generator'))}
EXPECT = {"bucket_sampler": "fail"}
