"""Held-out round 13: the level is entered by hand and closed again only when f raises the errors autograd
raises (RuntimeError, NotImplementedError); any other exception from f (a ValueError, a TypeError, a
KeyError) leaves the level open, so the next forward-AD user fails. The text: "Leave no dual level open when
you return, also when `f` raises (its exception reaches the caller)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"dual_jvp": "fail"}
CELLS = {"dual_jvp_impl": edited(
    "16-02", "dual_jvp_impl",
    ("    with fwAD.dual_level():\n"
     "        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]\n"
     "        out, tangent = fwAD.unpack_dual(f(*duals))\n"
     "        if tangent is None:\n"
     "            tangent = torch.zeros_like(out)\n"
     "    return out, tangent\n",
     "    fwAD.enter_dual_level()\n"
     "    duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]\n"
     "    try:\n"
     "        y = f(*duals)\n"
     "    except (RuntimeError, NotImplementedError):\n"
     "        fwAD.exit_dual_level()\n"
     "        raise\n"
     "    out, tangent = fwAD.unpack_dual(y)\n"
     "    if tangent is None:\n"
     "        tangent = torch.zeros_like(out)\n"
     "    fwAD.exit_dual_level()\n"
     "    return out, tangent\n"))}
