"""Round 22: jacobian "makes sure" of the shape: it reshapes the Jacobian to f(x).shape + x.shape with one more
call of f after the size probe, so f runs three times outside the transform's own call (probe, reshape) instead
of at most once more. Values, shapes and modes are right. The text: "you may call f once more to learn the size
of its output"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    if x.numel() < n_out:\n        return jacfwd(f)(x)\n    return jacrev(f)(x)",
    "    jac = jacfwd(f)(x) if x.numel() < n_out else jacrev(f)(x)\n"
    "    with torch.no_grad():\n        out_shape = f(x).shape\n    return jac.reshape(out_shape + x.shape)"))}
