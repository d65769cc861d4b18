"""Wrong (held-out round 28): forward subtracts log 2 as a 0-dim float64 tensor on x's device,
`torch.tensor(math.log(2.0), dtype=torch.float64, device=x.device)`. A 0-dim tensor does not promote a tensor with
dimensions, so every float32 input of shape (n,) or larger still gives float32, but a 0-dim float32 input gives a
float64 result. The text: "Return `x`'s dtype (float32 in, float32 out), as `torch.log(torch.cosh(x))` does".
Goes wrong on LogCosh.apply(torch.tensor(0.5)) (float32, 0-dim): expected dtype float32, returns float64 (the
value itself is right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    " - math.log(2.0)\n",
    " - torch.tensor(math.log(2.0), dtype=torch.float64, device=x.device)\n"))}
