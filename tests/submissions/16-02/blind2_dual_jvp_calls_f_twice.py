"""Computes out = f(*primals) on plain tensors first and then again on dual tensors: f runs twice (the text:
exactly once)."""
EXPECT = {'dual_jvp': 'fail'}
CELLS = {
    'dual_jvp_impl': '''
def dual_jvp(f, primals, tangents):
    out = f(*primals)
    with fwAD.dual_level():
        duals = tuple(fwAD.make_dual(p, t) for p, t in zip(primals, tangents))
        tangent = fwAD.unpack_dual(f(*duals)).tangent
        if tangent is None:
            tangent = torch.zeros_like(out)
    return out, tangent
''',
}
