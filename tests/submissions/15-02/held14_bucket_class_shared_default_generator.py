"""Wrong: "if `generator` is `None`, make one seeded from the global RNG (as `RandomSampler` does)", for
each sampler. This version makes that generator once per class (a class attribute) and shares it between
every sampler built without a generator: after `torch.manual_seed(s)` a new sampler does not repeat the
epochs an earlier sampler gave after the same `torch.manual_seed(s)`, and two samplers steal draws from
each other."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        if generator is None:\n"
     "            generator = torch.Generator()\n"
     "            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n",
     "        if generator is None:\n"
     "            if getattr(BucketBatchSampler, '_shared', None) is None:\n"
     "                g = torch.Generator()\n"
     "                g.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n"
     "                BucketBatchSampler._shared = g\n"
     "            generator = BucketBatchSampler._shared\n"))}
