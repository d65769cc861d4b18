"""Wrong (held-out round 8): one module-level hook reads max_norm from a global that each call overwrites, so after
clipping a second model at 0.1 the first model (attached with 1.0) is clipped at 0.1 too ("registers ... a hook that
rescales param.grad ... so its L2 norm is at most max_norm", the max_norm of that call)."""
EXPECT = {'grad_hooks': 'fail'}
CELLS = {"grad_clip_impl": '''
_CLIP_MAX_NORM = [1.0]


def _clip_hook(p):
    norm = p.grad.norm()
    if norm > _CLIP_MAX_NORM[0]:
        p.grad.mul_(_CLIP_MAX_NORM[0] / norm)


def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    _CLIP_MAX_NORM[0] = max_norm
    return [p.register_post_accumulate_grad_hook(_clip_hook) for p in model.parameters() if p.requires_grad]
'''}
