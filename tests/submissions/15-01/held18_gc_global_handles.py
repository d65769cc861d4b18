"""Round 18: attach_grad_clipping appends its handles to one module-level list and returns that list, so the
second call returns the first model's handles too: removing the handles a call returned also turns off the
clipping of every model attached before ("Return the list of handles, so that removing them turns clipping
off")."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    """def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:""",
    """_CLIP_HANDLES: list = []


def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:"""), (
    """    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]""",
    """    _CLIP_HANDLES.extend(p.register_post_accumulate_grad_hook(clip) for p in model.parameters()
                         if p.requires_grad)
    return _CLIP_HANDLES"""))}
