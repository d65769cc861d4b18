"""dual_jvp catches an exception from f on dual tensors ("some ops have no forward-mode formula") and falls
back to a plain call with a zero tangent: f's exception does not reach the caller when the plain call
succeeds, the jvp is silently zero, and f may run twice."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    with fwAD.dual_level():
        try:
            out = f(*[fwAD.make_dual(p, t) for p, t in zip(primals, tangents)])
        except Exception:
            out = f(*primals)
        primal, tangent = fwAD.unpack_dual(out)
        if tangent is None:
            tangent = torch.zeros_like(primal)
        return primal, tangent
''',
}
