"""Round 22: attach_grad_clipping collects its handles in a mutable default argument (handles=[]), so the list
one call returns also holds every earlier call's handles: removing the handles returned for one model turns
clipping off on every model clipped before it ("Return the list of handles, so that removing them turns
clipping off" -- the handles this call registered, on this model)."""

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": '''def attach_grad_clipping(model: nn.Module, max_norm: float, handles=[]) -> list:
    def clip(p):
        norm = p.grad.norm()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)

    for p in model.parameters():
        if p.requires_grad:
            handles.append(p.register_post_accumulate_grad_hook(clip))
    return handles
'''}
