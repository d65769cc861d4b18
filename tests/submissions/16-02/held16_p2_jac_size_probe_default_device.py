"""Round 16, phase 2 (written after reading the checks, to prove the device check): jacobian learns the size of f's
output from f(torch.zeros(x.shape, dtype=x.dtype)), made without device=: for x on a GPU, f mixes that CPU tensor
with its own GPU tensors and raises ("you may call f once more": on x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "        n_out = f(x).numel()",
    "        n_out = f(torch.zeros(x.shape, dtype=x.dtype)).numel()"))}
