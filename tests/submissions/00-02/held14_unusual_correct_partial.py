"""Held-out round 14, unusual but correct: pack returns a `functools.partial` that holds only the bfloat16
copy and the dtype to return to (or the kept tensor), and unpack calls it; the context manager is a
generator-based one around saved_tensors_hooks."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": '''import functools


def pack_compressed(t):
    """What the graph keeps instead of t."""
    if t.dtype in (torch.float32, torch.float64):
        return functools.partial(torch.Tensor.to, t.to(torch.bfloat16), t.dtype)
    return functools.partial(lambda kept: kept, t)


def unpack_compressed(packed):
    """The tensor packed by pack_compressed, back in its own dtype."""
    return packed()


@contextlib.contextmanager
def compressed_saved_tensors():
    """A context manager: saved tensors go through pack_compressed / unpack_compressed."""
    with torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed):
        yield
'''}
