"""Round 12 (held out): pack keeps the bfloat16 copy in a module-level store and returns only a key;
unpack pops it. A second unpack of the same packed value (backward(retain_graph=True) twice, or reading a
saved tensor twice) fails: "unpack_compressed(packed) returns a tensor with the original shape, dtype and
device", and the store holds tensors the graph no longer owns."""
EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": '''import itertools

_STORE = {}
_KEYS = itertools.count()


def pack_compressed(t):
    """What the graph keeps instead of t."""
    if t.dtype in (torch.float32, torch.float64):
        key = next(_KEYS)
        _STORE[key] = t.to(torch.bfloat16)
        return (key, t.dtype)
    return (t, None)


def unpack_compressed(packed):
    """The tensor packed by pack_compressed, back in its own dtype."""
    data, dtype = packed
    if dtype is None:
        return data
    return _STORE.pop(data).to(dtype)


def compressed_saved_tensors():
    """A context manager: saved tensors go through pack_compressed / unpack_compressed."""
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
'''}
