"""Round 19: jacobian translates "of shape f(x).shape + x.shape" literally: after the probe call that learns
the size, it reshapes the Jacobian to f(x).shape + x.shape, calling f a third time. The values and shapes are
right, but f runs once more than the text allows (an expensive f, or one with side effects, pays twice). The
text: "you may call f once more to learn the size of its output"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    if x.numel() < n_out:\n        return jacfwd(f)(x)\n    return jacrev(f)(x)\n",
    "    J = jacfwd(f)(x) if x.numel() < n_out else jacrev(f)(x)\n"
    "    return J.reshape(f(x).shape + x.shape)\n"))}
