"""Round 29: jacobian learns the size of f's output by calling f on `torch.zeros_like(x)` instead of x ("any
input of x's shape gives the output's shape, and zeros are cheap"). f is only promised to work at x: where f is
not defined at zero the probe raises (or warns and makes NaN), and jacobian fails for an f whose Jacobian at x
exists.
The text: "you may call `f` once more to learn the size of its output" (the call is f(x): f "returns one tensor"
for the x given) and "Return the Jacobian of `f` at `x`"; wrong input: f(x) = torch.linalg.cholesky(torch.diag(x))
at x = [1., 2., 3.] (the probe cholesky(diag(0)) raises LinAlgError), or any f that checks its input."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "        n_out = f(x).numel()\n",
    "        n_out = f(torch.zeros_like(x)).numel()\n"))}
