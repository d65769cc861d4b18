"""Keeps the original tensor next to the bfloat16 copy (to remember its dtype): the graph holds more bytes than before."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": '''
def pack_compressed(t):
    if t.is_floating_point() and t.dtype != torch.float16:
        return t.to(torch.bfloat16), t
    return t, t


def unpack_compressed(packed):
    small, original = packed
    return small.to(original.dtype)


def compressed_saved_tensors():
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
'''}
