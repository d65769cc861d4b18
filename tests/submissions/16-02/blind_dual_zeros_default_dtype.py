"""dual_jvp builds the zero tangent with `torch.zeros(out.shape)`: the default dtype (float32), not the
output's dtype, when the output does not depend on the primals (a float64 output gets a float32 jvp_out)."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    with fwAD.dual_level():
        out = f(*[fwAD.make_dual(p, t) for p, t in zip(primals, tangents)])
        primal, tangent = fwAD.unpack_dual(out)
        if tangent is None:
            tangent = torch.zeros(primal.shape)
    return primal, tangent
''',
}
