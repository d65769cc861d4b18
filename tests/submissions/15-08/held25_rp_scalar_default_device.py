"""Wrong: "Make every tensor you create on `x`'s device (...): the same code runs with NCCL, where `x` lives
on `cuda:rank`." This version sends a 0-d x as a one-element tensor and receives it into
`torch.empty(1, dtype=x.dtype)`, made without `device=`: on CUDA a 0-d x comes back on the CPU."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    outgoing = x.contiguous()\n    incoming = torch.empty_like(outgoing)\n",
     "    if x.dim() == 0:  # send a scalar as a one-element vector\n"
     "        outgoing = x.reshape(1).clone()\n"
     "        incoming = torch.empty(1, dtype=x.dtype)\n"
     "    else:\n"
     "        outgoing = x.contiguous()\n"
     "        incoming = torch.empty_like(outgoing)\n"),
    ("    return incoming\n",
     "    return incoming.reshape(x.shape)\n"))}
