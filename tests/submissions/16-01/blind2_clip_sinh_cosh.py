"""tanh written by hand as sinh/cosh: inf/inf is nan for |x / limit| past about 89 in float32 (710 in float64), so the
operator is not finite and does not saturate at +-limit for large inputs, against the task's third bullet."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    z = x / limit
    return limit * (torch.sinh(z) / torch.cosh(z))


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x)
''',
}
