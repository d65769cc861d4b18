"""Flattens x to handle every shape the same way (x.reshape(-1)) and reshapes the result back: for a transposed x the
result is contiguous, not laid out like torch.empty_like(x) as the task and the fake kernel say."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    flat = x.reshape(-1)
    return (limit * torch.tanh(flat / limit)).reshape(x.shape)


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x)
''',
}
