"""Wrong: "if `generator` is `None`, make one seeded from the global RNG (as `RandomSampler` does)". This version
seeds its generator with `torch.initial_seed()`: that is the seed the global RNG was *given*, not a number drawn
from it, so every sampler built without a generator in one program shuffles the same way (two such samplers on
the same lengths give the same epochs), whatever the global RNG has drawn since."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n",
     "            generator.manual_seed(torch.initial_seed())\n"))}
