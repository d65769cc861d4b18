"""Wrong: "every `__iter__` (epoch) yields those batches ... in a random order drawn **only** from `generator`;
the same seed gives the same sequence of batches". This version breaks ties between equal lengths at random
(so equal-length items do not always travel together) by sorting `lengths + 0.5 * torch.rand(n)`: the
tie-break is drawn from the *global* RNG in `__init__`, so with repeated lengths two samplers with the same
generator seed group the indices differently whenever the global RNG moved in between."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        order = torch.argsort(self.lengths, stable=True).tolist()\n",
     "        keys = self.lengths.double() + 0.5 * torch.rand(len(self.lengths), dtype=torch.float64)\n"
     "        order = torch.argsort(keys).tolist()\n"))}
