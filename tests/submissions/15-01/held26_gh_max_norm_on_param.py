"""Round 26 (held out): attach_grad_clipping stores max_norm on each parameter (p._clip_max_norm) and registers
one module-level hook function that reads it back from the parameter.

Breaks "registers, on every parameter that requires a gradient, a post-accumulate-grad hook that rescales
param.grad in place so its L2 norm is at most max_norm ... Return the list of handles, so that removing them
turns clipping off". Two models attached at once keep their own max_norm, but attaching twice to the SAME
model (attach_grad_clipping(m, 0.1), then attach_grad_clipping(m, 10.0)) overwrites the stored value: the first
call's hooks now clip at 10.0, so after one backward a gradient of norm 5 stays at norm 5 (both hooks of the
reference clip it to 0.1), and after removing the second call's handles the first call's hooks still clip at
10.0 instead of 0.1."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    """    def clip(p):
        norm = p.grad.norm()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)

    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]""",
    """    handles = []
    for p in model.parameters():
        if p.requires_grad:
            p._clip_max_norm = max_norm
            handles.append(p.register_post_accumulate_grad_hook(_clip_to_stored_norm))
    return handles


def _clip_to_stored_norm(p):
    norm = p.grad.norm()
    if norm > p._clip_max_norm:
        p.grad.mul_(p._clip_max_norm / norm)"""))}
