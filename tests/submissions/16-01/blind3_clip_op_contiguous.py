"""Makes the result contiguous ('a clean new tensor'): a transposed input gives row-major strides, not those of
torch.empty_like(x) that the fake kernel promises."""
EXPECT = {'clip_op': 'fail'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return (limit * torch.tanh(x / limit)).contiguous()


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
