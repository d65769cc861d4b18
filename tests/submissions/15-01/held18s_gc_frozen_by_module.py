"""Round 18, second pass (not counted): attach_grad_clipping decides per module, from its first parameter,
whether the module is frozen, and then hooks all of that module's own parameters. A layer whose weight is
trained but whose bias is frozen raises (a hook on a tensor that does not require grad), and a layer whose
weight is frozen but whose bias is trained goes unclipped ("registers, on every parameter that requires a
gradient, ...", "Frozen parameters (requires_grad=False) get no hook")."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    """    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]""",
    """    handles = []
    for module in model.modules():
        own = list(module.parameters(recurse=False))
        if own and own[0].requires_grad:   # a frozen layer is skipped
            handles += [p.register_post_accumulate_grad_hook(clip) for p in own]
    return handles"""))}
