"""Round 22, a correct answer written another way: dual_jvp opens the level by hand with
fwAD.enter_dual_level(), makes the duals at that level, closes it with fwAD.exit_dual_level(level=...) in a
finally clause (so an exception from f still closes it), and builds the zero jvp with out.new_zeros(out.shape)
(the output's dtype and device)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():\n"
    "        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]\n"
    "        out, tangent = fwAD.unpack_dual(f(*duals))\n"
    "        if tangent is None:\n"
    "            tangent = torch.zeros_like(out)\n"
    "    return out, tangent",
    "    level = fwAD.enter_dual_level()\n"
    "    try:\n"
    "        y = f(*(fwAD.make_dual(p, t, level=level) for p, t in zip(primals, tangents)))\n"
    "        unpacked = fwAD.unpack_dual(y, level=level)\n"
    "        out, tangent = unpacked.primal, unpacked.tangent\n"
    "    finally:\n"
    "        fwAD.exit_dual_level(level=level)\n"
    "    return out, (out.new_zeros(out.shape) if tangent is None else tangent)"))}
