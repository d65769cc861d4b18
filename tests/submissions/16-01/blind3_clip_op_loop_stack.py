"""Elementwise loop then stack and reshape: fails on empty tensors and gives row-major strides for transposed inputs."""
EXPECT = {'clip_op': 'fail'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return torch.stack([limit * torch.tanh(v / limit) for v in x.reshape(-1)]).reshape(x.shape)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
