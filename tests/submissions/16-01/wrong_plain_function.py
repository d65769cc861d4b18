"""Registers the operator under another name and binds smooth_clip to a plain function: the compiler traces into
it (tanh in the graph) and no operator node is there."""
EXPECT = {"clip_op": "fail"}
CELLS = {"clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def _smooth_clip_op(x: torch.Tensor, limit: float) -> torch.Tensor:
    return limit * torch.tanh(x / limit)


@_smooth_clip_op.register_fake
def _(x, limit):
    return torch.empty_like(x)


def smooth_clip(x, limit):
    return limit * torch.tanh(x / limit)


smooth_clip.register_autograd = _smooth_clip_op.register_autograd
'''}
