"""Known-wrong clip_grad_norm (held-out round 12): returns the Python float 0.0 when no parameter has a
gradient. The docstring: "Returns the total norm before clipping as a 0-dim tensor (0.0 if no parameter
has a gradient)"; the value is 0.0, the type is still a 0-dim tensor."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_impl": edited("15-10", "clip_impl", (
    "        return torch.tensor(0.0)\n",
    "        return 0.0\n"))}
EXPECT = {"clipping": "fail"}
