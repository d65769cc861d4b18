"""Held-out round 8, wrong: jacobian calls f three extra times to learn the output's size (once for the
comparison, once for its shape, once for its number of dimensions) before running jacfwd or jacrev. Breaks
"you may call f once more to learn the size of its output": once, not three times."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "        n_out = f(x).numel()\n",
    "        n_out = f(x).numel()\n        out_shape = f(x).shape\n        out_dim = f(x).dim()\n"
    "    assert len(out_shape) == out_dim\n"))}
