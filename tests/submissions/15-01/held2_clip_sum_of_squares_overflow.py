"""Wrong (held-out round 2): the norm written as (g * g).sum().sqrt() in the gradient's own dtype overflows
to inf for a float16 gradient whose squares pass 65504 (entries above 256) where torch.linalg.vector_norm
accumulates in float32, and the hook then multiplies by max_norm / inf = 0 ("rescales param.grad in place so its L2 norm is at most max_norm (multiply by max_norm /
norm ...)")."""
EXPECT = {'grad_hooks': 'fail'}
CELLS = {"grad_clip_impl": '''
def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    def clip(p):
        norm = (p.grad * p.grad).sum().sqrt()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)

    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]
'''}
