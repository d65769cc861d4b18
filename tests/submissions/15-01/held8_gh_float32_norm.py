"""Wrong (held-out round 8): computes the norm as p.grad.float().norm(). For a float64 model with gradient entries
near 1e20 the squares overflow float32, the norm is inf and the gradient is multiplied by 0 instead of
max_norm / norm (float64's own norm is 2e20 there) ("multiply by max_norm / norm when norm > max_norm")."""
EXPECT = {'grad_hooks': 'fail'}
CELLS = {"grad_clip_impl": '''
def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    def clip(p):
        norm = p.grad.float().norm()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)

    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]
'''}
