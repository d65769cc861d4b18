"""Wrong: "if `generator` is `None`, make one seeded from the global RNG (as `RandomSampler` does)". This
version seeds it with `torch.initial_seed()`, the seed the global RNG *started* from, instead of drawing a
number from the global RNG: every sampler built without a generator in one program shuffles identically,
whatever the global RNG did meanwhile."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n",
     "            generator.manual_seed(torch.initial_seed())\n"))}
