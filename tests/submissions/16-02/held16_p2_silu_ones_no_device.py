"""Round 16, phase 2 (written after reading the checks, to prove the device check): backward and jvp write 1 - s as
torch.ones(x.shape) - s, a tensor made without device=: right on the CPU, a device mismatch for x on a GPU."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl",
    ("        return g * (s + x * s * (1 - s))",
     "        return g * (s + x * s * (torch.ones(x.shape, dtype=x.dtype) - s))"),
    ("        return t * (s + x * s * (1 - s))",
     "        return t * (s + x * s * (torch.ones(x.shape, dtype=x.dtype) - s))"))}
