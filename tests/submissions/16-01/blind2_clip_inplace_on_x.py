"""Saves an allocation by working in place on x and returning a clone: the result is right, but the caller's x is
overwritten with smooth_clip(x), against 'it leaves x unchanged'."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    x.div_(limit).tanh_().mul_(limit)
    return x.clone()


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x)
''',
}
