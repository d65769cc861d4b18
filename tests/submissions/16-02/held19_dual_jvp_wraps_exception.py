"""Round 19: dual_jvp closes its level by hand when f raises and reports the failure as its own
RuntimeError("dual_jvp: f failed: ..."), chained from f's exception: the level is closed, but what reaches the
caller is a different exception (a different type where f raised, say, a ValueError or NotImplementedError's
subclass). The text: "Leave no dual level open when you return, also when f raises (its exception reaches the
caller)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "        out, tangent = fwAD.unpack_dual(f(*duals))\n",
    "        try:\n            y = f(*duals)\n        except Exception as e:\n"
    "            raise RuntimeError(f\"dual_jvp: f failed: {e}\") from e\n"
    "        out, tangent = fwAD.unpack_dual(y)\n"))}
