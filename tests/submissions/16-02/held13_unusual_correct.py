"""Held-out round 13: a correct dual_jvp written unusually: the level number from `dual_level()`'s
__enter__ is passed to make_dual and unpack_dual explicitly, the level is managed by an ExitStack, and the
zero tangent is out.new_zeros(out.shape). Every other task is the reference."""

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    import contextlib
    with contextlib.ExitStack() as stack:
        level = stack.enter_context(fwAD.dual_level())
        duals = tuple(fwAD.make_dual(p, t, level=level) for p, t in zip(primals, tangents))
        unpacked = fwAD.unpack_dual(f(*duals), level=level)
        out = unpacked.primal
        jvp_out = unpacked.tangent if unpacked.tangent is not None else out.new_zeros(out.shape)
    return out, jvp_out
'''}
