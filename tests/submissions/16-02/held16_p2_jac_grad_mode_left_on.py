"""Round 16, phase 2 (written after reading the checks, to prove the global-state check): jacobian measures f(x)
with torch.set_grad_enabled(False) and then turns grad mode on again, whatever it was: called under
torch.no_grad(), it leaves grad mode on ("leaving grad mode and every other global setting as it was")."""
from course.grading.class_run.submissions import edited

EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    """    with torch.no_grad():
        n_out = f(x).numel()""",
    """    torch.set_grad_enabled(False)
    n_out = f(x).numel()
    torch.set_grad_enabled(True)"""))}
