"""The zero tangent is torch.zeros(out.shape): the default dtype (float32), not the output's dtype (float64
outputs get float32 zeros)."""
EXPECT = {'dual_jvp': 'fail'}
CELLS = {
    'dual_jvp_impl': '''
def dual_jvp(f, primals, tangents):
    with fwAD.dual_level():
        duals = tuple(fwAD.make_dual(p, t) for p, t in zip(primals, tangents))
        out = f(*duals)
        primal, tangent = fwAD.unpack_dual(out)
        if tangent is None:
            tangent = torch.zeros(primal.shape)
    return primal, tangent
''',
}
