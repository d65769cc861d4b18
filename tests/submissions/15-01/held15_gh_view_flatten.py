"""Round 15: attach_grad_clipping's hook takes the norm of p.grad.view(-1): a parameter whose gradient is not
contiguous (a channels-last conv weight, a transposed weight; autograd gives .grad the parameter's layout)
makes the hook raise inside backward ("on every parameter that requires a gradient")."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "        norm = p.grad.norm()", "        norm = p.grad.view(-1).norm()"))}
