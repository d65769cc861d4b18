"""The fake kernel hard-codes the CPU device (torch.empty_like(x, device='cpu')): under FakeTensorMode on CPU it looks
right, but on the meta device it returns a real CPU tensor, not x's device."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    return limit * torch.tanh(x / limit)


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x, device="cpu")
''',
}
