"""Held-out round 25: trace_mismatches traces the model on the example's first image only (`example[:1]`, "one image
records the same operations, and faster") instead of on the whole example. Exercise 1: "Trace `model` once, on
`example`". Wrong on an example whose images lie on both sides of 0.5, e.g. one dark image followed by three bright
ones: the batch mean is above 0.5, so the trace on `example` keeps the inversion, but the trace on its first (dark)
image bakes in the other branch, and the flags of dark and bright inputs come out swapped."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("            traced = torch.jit.trace(model, example)\n",
     "            traced = torch.jit.trace(model, example[:1])  # one image records the same operations\n"))}
