"""Computes in float64 "so that 1e30 cannot overflow" and forgets to cast back: a float32 input gives a float64
output, not x's dtype (and not the dtype the fake kernel promises)."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return limit * torch.tanh(x.double() / limit)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
