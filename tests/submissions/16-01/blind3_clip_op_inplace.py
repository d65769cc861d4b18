"""Computes in place on x to save memory, then returns a copy: x is changed."""
EXPECT = {'clip_op': 'fail'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    x.div_(limit).tanh_().mul_(limit)
    return x.clone()


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
