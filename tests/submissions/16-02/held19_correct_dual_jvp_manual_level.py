"""Round 19, correct in an unusual way: dual_jvp enters and exits the dual level by hand
(fwAD.enter_dual_level / fwAD.exit_dual_level(level=...) in try/finally) instead of the context manager, makes
the duals in a loop with the tangent converted by .to(primal) (a no-op for a tangent of its primal's dtype and
device), and builds the zero jvp with out.new_zeros(out.shape)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():\n        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]\n"
    "        out, tangent = fwAD.unpack_dual(f(*duals))\n        if tangent is None:\n"
    "            tangent = torch.zeros_like(out)\n    return out, tangent\n",
    "    level = fwAD.enter_dual_level()\n    try:\n        duals = []\n"
    "        for p, t in zip(primals, tangents):\n            duals.append(fwAD.make_dual(p, t.to(p)))\n"
    "        res = fwAD.unpack_dual(f(*duals), level=level)\n    finally:\n"
    "        fwAD.exit_dual_level(level=level)\n"
    "    out = res.primal\n    jv = res.tangent if res.tangent is not None else out.new_zeros(out.shape)\n"
    "    return out, jv\n"))}
