"""Casts every saved tensor to bfloat16, integer indices and masks included, and back: max-pooling's int64
indices come back rounded, so the gradient lands on the wrong pixels."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": '''
def pack_compressed(t):
    return t.to(torch.bfloat16), t.dtype


def unpack_compressed(packed):
    data, dtype = packed
    return data.to(dtype)


def compressed_saved_tensors():
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
'''}
