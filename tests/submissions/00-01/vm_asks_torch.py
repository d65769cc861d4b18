"""view_meta: builds a meta tensor with as_strided and reads PyTorch's answer back; right values, but the text asks for integer arithmetic only, with no calls into PyTorch."""
EXPECT = {'view_meta': 'fail', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {
    'view_meta_impl': '''

def view_meta(shape, stride, offset, op, args):
    t = torch.empty(0, device="meta").as_strided(tuple(shape), tuple(stride), offset)
    if op == "view":
        o = t.view(tuple(args[0]))
    elif op == "transpose":
        o = t.transpose(*args)
    elif op == "expand":
        o = t.expand(tuple(args[0]))
    elif op == "slice":
        o = torch.ops.aten.slice.Tensor(t, *args)
    else:
        o = t.select(*args)
    return tuple(o.shape), tuple(o.stride()), o.storage_offset()
''',
}
