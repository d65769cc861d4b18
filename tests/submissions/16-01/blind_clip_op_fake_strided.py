"""The fake kernel copies x's strides with torch.empty_strided(x.shape, x.stride(), dtype=x.dtype) and forgets
the device: on the meta device (or a GPU) the fake output is a CPU tensor, and for a sliced input with gaps
(x[:, ::2]) the copied strides are not those of torch.empty_like(x) that the real kernel returns."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return limit * torch.tanh(x / limit)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_strided(x.shape, x.stride(), dtype=x.dtype)
''',
}
