"""Wrong: "Return a new tensor of `x`'s shape, dtype and device". group_sums here reduces a 0-d x as the
one-element vector `torch.tensor([x.item()], dtype=x.dtype)`, made without `device=`, and returns it
reshaped: on CUDA a 0-d x's sum comes back on the CPU (every other shape is right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    out = x.clone()\n    dist.all_reduce(out, group=mine)\n    return out\n",
     "    if x.dim() == 0:  # reduce a scalar as a one-element vector\n"
     "        out = torch.tensor([x.item()], dtype=x.dtype)\n"
     "        dist.all_reduce(out, group=mine)\n"
     "        return out.reshape(())\n"
     "    out = x.clone()\n"
     "    dist.all_reduce(out, group=mine)\n"
     "    return out\n"))}
