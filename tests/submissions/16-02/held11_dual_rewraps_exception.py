"""Held-out round 11: dual_jvp catches an exception from f and raises a RuntimeError of its own ("dual_jvp: f
failed on dual inputs: ...") from it. The level is closed, but the caller gets a different exception type
than the one f raised (a NotImplementedError for an op without a forward-mode formula, a ValueError of the
caller's own). The text says "also when f raises (its exception reaches the caller)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited(
    "16-02", "dual_jvp_impl",
    ("out, tangent = fwAD.unpack_dual(f(*duals))",
     "try:\n"
     "            res = f(*duals)\n"
     "        except Exception as e:\n"
     "            raise RuntimeError(f\"dual_jvp: f failed on dual inputs: {e}\") from e\n"
     "        out, tangent = fwAD.unpack_dual(res)"))}
