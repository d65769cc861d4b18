"""Wrong (held-out round 2): keeps only the dtypes the text names (int64, bool, float16) and compresses
every other one, so an int32 index or a complex tensor comes back changed ("any other dtype ... kept as they are")."""
EXPECT = {'compress': 'fail'}
CELLS = {"compress_impl": '''
def pack_compressed(t):
    if t.dtype in (torch.int64, torch.bool, torch.float16):
        return (t, None)
    return (t.to(torch.bfloat16), t.dtype)


def unpack_compressed(packed):
    data, dtype = packed
    return data if dtype is None else data.to(dtype)


def compressed_saved_tensors():
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
'''}
