"""dual_jvp opens the level with fwAD.enter_dual_level() and closes it with exit_dual_level() after the call,
without try/finally: when f raises, the level stays open (the next dual_level() in the process fails)."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    level = fwAD.enter_dual_level()
    out = f(*[fwAD.make_dual(p, t, level=level) for p, t in zip(primals, tangents)])
    primal, tangent = fwAD.unpack_dual(out, level=level)
    if tangent is None:
        tangent = torch.zeros_like(primal)
    primal, tangent = primal.clone(), tangent.clone()
    fwAD.exit_dual_level(level=level)
    return primal, tangent
''',
}
