"""dual_jvp computes the value with a plain call f(*primals) and the tangent with a second call on dual
tensors; the text says to call f exactly once (f may be expensive, or have side effects)."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    out = f(*primals)
    with fwAD.dual_level():
        y = f(*[fwAD.make_dual(p, t) for p, t in zip(primals, tangents)])
        tangent = fwAD.unpack_dual(y).tangent
    if tangent is None:
        tangent = torch.zeros_like(out)
    return out, tangent
''',
}
