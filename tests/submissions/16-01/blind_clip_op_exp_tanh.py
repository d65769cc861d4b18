"""tanh written out of exponentials, (e^{2z} - 1) / (e^{2z} + 1) with z = x / limit: exp overflows to inf for
large inputs and the quotient inf / inf is nan, so the operator neither stays finite nor saturates at +-limit
for inputs like 1e30 (the text promises both)."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    e = torch.exp(2 * x / limit)
    return limit * (e - 1) / (e + 1)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
