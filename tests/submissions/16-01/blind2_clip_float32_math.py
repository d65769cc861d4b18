"""Computes in float32 'for speed' and casts back: float64 inputs get float32-precision results (relative error about
1e-7), not limit * tanh(x / limit) in x's dtype."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    return (limit * torch.tanh(x.float() / limit)).to(x.dtype)


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x)
''',
}
