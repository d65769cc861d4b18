"""Enters a dual level and never exits it: the first call works, the next one finds a level already open."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {"dual_jvp_impl": """
def dual_jvp(f, primals, tangents):
    fwAD.enter_dual_level()
    duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
    out, tangent = fwAD.unpack_dual(f(*duals))
    if tangent is None:
        tangent = torch.zeros_like(out)
    return out, tangent
"""}
