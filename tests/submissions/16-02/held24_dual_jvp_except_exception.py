"""Round 24: dual_jvp enters the level by hand and closes it in `except Exception:` before re-raising, and
after the try on success. An f that raises an exception that is not an Exception (KeyboardInterrupt: the user
interrupts a long f; SystemExit; GeneratorExit) leaves the dual level open: the next dual_jvp (or any
`fwAD.dual_level()`) fails with "Nested forward mode AD is not supported". The text: "Leave no dual level open
when you return, also when f raises (its exception reaches the caller)"; wrong input: an f that raises
KeyboardInterrupt."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    with fwAD.dual_level():\n"
    "        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]\n"
    "        out, tangent = fwAD.unpack_dual(f(*duals))\n",
    "    fwAD.enter_dual_level()\n"
    "    try:\n"
    "        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]\n"
    "        out, tangent = fwAD.unpack_dual(f(*duals))\n"
    "    except Exception:\n"
    "        fwAD.exit_dual_level()\n"
    "        raise\n"
    "    fwAD.exit_dual_level()\n"
    "    if True:\n"))}
