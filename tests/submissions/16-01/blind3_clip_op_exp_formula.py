"""Writes tanh out of exponentials, (e^{2z}-1)/(e^{2z}+1): inf/inf gives nan for large inputs instead of saturating at
+-limit."""
EXPECT = {'clip_op': 'fail'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    e = torch.exp(2 * x / limit)
    return limit * (e - 1) / (e + 1)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
