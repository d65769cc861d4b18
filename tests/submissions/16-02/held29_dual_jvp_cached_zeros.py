"""Round 29: dual_jvp keeps one tensor of zeros per (shape, dtype, device) in a module-level cache and returns
that same tensor whenever the output carries no tangent, to save an allocation per call. Every call returns the
right values until the caller writes into a result (accumulating, `jv += ...`, `jv.add_(...)`): the next call
with an output of that shape then returns the caller's numbers instead of zeros.
The text: "When the output does not depend on the primals (its tangent is `None`), `jvp_out` is a tensor of zeros
of the output's shape, dtype and device"; wrong input: two calls of dual_jvp(lambda a: torch.ones(2), (a,), (t,))
with the first result's jvp_out changed in place (jv.add_(1)) in between: the second call returns [1, 1]."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "def dual_jvp(f, primals, tangents):\n",
    "_ZEROS = {}\n\n\ndef dual_jvp(f, primals, tangents):\n"), (
    "            tangent = torch.zeros_like(out)\n",
    "            key = (tuple(out.shape), out.dtype, out.device)\n"
    "            if key not in _ZEROS:\n"
    "                _ZEROS[key] = torch.zeros_like(out)\n"
    "            tangent = _ZEROS[key]\n"))}
