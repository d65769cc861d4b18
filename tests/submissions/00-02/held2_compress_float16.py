"""Wrong (held-out round 2): float32/float64 saved as float16, not bfloat16: the same bytes, but values
above 65504 come back as inf ("stores a float32 or float64 tensor as bfloat16")."""
EXPECT = {'compress': 'fail'}
CELLS = {"compress_impl": '''
def pack_compressed(t):
    if t.dtype in (torch.float32, torch.float64):
        return (t.to(torch.float16), t.dtype)
    return (t, None)


def unpack_compressed(packed):
    data, dtype = packed
    return data if dtype is None else data.to(dtype)


def compressed_saved_tensors():
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
'''}
