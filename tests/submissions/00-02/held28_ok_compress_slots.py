"""Correct, written unusually (held-out round 28): the packed form of a float32/float64 tensor is a small
__slots__ object holding only the bfloat16 copy and the dtype; tensors of other dtypes are returned themselves
(not wrapped), and unpack tells the two apart by type. The context manager is a class of its own that builds the
hooks object on __enter__ and delegates __exit__ to it."""
EXPECT = {"compress": "pass"}
CELLS = {"compress_impl": '''
class _Packed:
    __slots__ = ("half", "dtype")

    def __init__(self, half, dtype):
        self.half, self.dtype = half, dtype


def pack_compressed(t):
    """What the graph keeps instead of t."""
    if t.dtype is torch.float32 or t.dtype is torch.float64:
        return _Packed(t.to(dtype=torch.bfloat16), t.dtype)
    return t


def unpack_compressed(packed):
    """The tensor packed by pack_compressed, back in its own dtype."""
    if isinstance(packed, _Packed):
        return packed.half.to(dtype=packed.dtype)
    return packed


class _Compressed:
    def __enter__(self):
        self._hooks = torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
        self._hooks.__enter__()
        return self

    def __exit__(self, *exc):
        hooks, self._hooks = self._hooks, None
        return hooks.__exit__(*exc)


def compressed_saved_tensors():
    """A context manager: saved tensors go through pack_compressed / unpack_compressed."""
    return _Compressed()
'''}
