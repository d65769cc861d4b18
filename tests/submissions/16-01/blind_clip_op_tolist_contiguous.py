"""The kernel copied from the notebook's python_clip demo: a list comprehension over x.tolist() with math.tanh,
rebuilt with torch.tensor(...).reshape(x.shape). Values are right, but the result is always contiguous, so for
a transposed input its strides are not those of torch.empty_like(x) that the fake kernel promises."""
EXPECT = {"clip_op": "fail"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    vals = [limit * math.tanh(v / limit) for v in x.flatten().tolist()]
    return torch.tensor(vals, dtype=x.dtype, device=x.device).reshape(x.shape)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
}
