"""Round 12 (held out): pack divides by the largest magnitude (kept as a Python float) before rounding to
bfloat16, "to use the range well". An all-zero tensor comes back NaN (0/0), one holding inf comes back
NaN, an empty one raises: not "equal to t up to bfloat16 rounding"."""
EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": '''def pack_compressed(t):
    """What the graph keeps instead of t."""
    if t.dtype in (torch.float32, torch.float64):
        scale = t.abs().max().item()
        return ((t / scale).to(torch.bfloat16), scale, t.dtype)
    return (t, None, None)


def unpack_compressed(packed):
    """The tensor packed by pack_compressed, back in its own dtype."""
    data, scale, dtype = packed
    return data if dtype is None else data.to(dtype) * scale


def compressed_saved_tensors():
    """A context manager: saved tensors go through pack_compressed / unpack_compressed."""
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
'''}
