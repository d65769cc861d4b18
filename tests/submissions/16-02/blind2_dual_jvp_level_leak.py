"""Opens the level with __enter__ and closes it with __exit__ after the call, without try/finally: when f raises,
the level stays open (the text: no level left open, also when f raises)."""
EXPECT = {'dual_jvp': 'fail'}
CELLS = {
    'dual_jvp_impl': '''
def dual_jvp(f, primals, tangents):
    level = fwAD.dual_level()
    level.__enter__()
    duals = tuple(fwAD.make_dual(p, t) for p, t in zip(primals, tangents))
    out = f(*duals)
    primal, tangent = fwAD.unpack_dual(out)
    if tangent is None:
        tangent = torch.zeros_like(primal)
    else:
        tangent = tangent.clone()
    level.__exit__(None, None, None)
    return primal, tangent
''',
}
