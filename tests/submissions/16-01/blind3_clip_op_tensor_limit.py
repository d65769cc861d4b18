"""Turns limit into a float64 tensor: a 0-dim float32 x is promoted to a float64 result."""
EXPECT = {'clip_op': 'fail'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    c = torch.tensor(limit, dtype=torch.float64, device=x.device)
    return c * torch.tanh(x / c)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
