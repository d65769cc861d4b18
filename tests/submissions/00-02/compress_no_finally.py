"""A generator-based context manager that enters the hooks and exits them after the yield, without try/finally:
an exception inside the block leaves the hooks installed."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": '''
def pack_compressed(t):
    if t.dtype in (torch.float32, torch.float64):
        return (t.to(torch.bfloat16), t.dtype)
    return (t, None)


def unpack_compressed(packed):
    data, dtype = packed
    return data if dtype is None else data.to(dtype)


@contextlib.contextmanager
def compressed_saved_tensors():
    hooks = torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
    hooks.__enter__()
    yield hooks
    hooks.__exit__(None, None, None)
'''}
