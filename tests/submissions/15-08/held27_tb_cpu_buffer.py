"""Wrong: "Make every tensor you create on `x`'s device (`torch.empty_like(x)` or `device=x.device`): the
same code runs with NCCL, where `x` lives on `cuda:rank`." This version receives into a buffer made with
an explicit `device="cpu"` ("everything runs on CPU with gloo") and copies it into x: on CPU it is right,
with NCCL the receive buffer is a CPU tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("            dist.recv(x, (v - mask + src) % world)\n",
     "            buf = torch.empty(x.shape, dtype=x.dtype, device=\"cpu\")  # gloo works on CPU\n"
     "            dist.recv(buf, (v - mask + src) % world)\n"
     "            x.copy_(buf)\n"))}
