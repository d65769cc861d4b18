"""Clamp.backward is not decorated with once_differentiable; it returns a detached gradient instead. Alone,
differentiating twice still raises (the gradient does not require grad), but as part of a larger graph
(Clamp(x) + x**2) the second derivative silently treats Clamp's gradient as a constant: the task says to
decorate backward so that differentiating twice raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl",
                              ("    @staticmethod\n    @once_differentiable\n", "    @staticmethod\n"),
                              ("return torch.where(mask, grad_out, torch.zeros_like(grad_out)), None, None",
                               "g = grad_out.detach()\n"
                               "        return torch.where(mask, g, torch.zeros_like(g)), None, None"))}
