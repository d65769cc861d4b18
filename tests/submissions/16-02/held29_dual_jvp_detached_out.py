"""Round 29: dual_jvp returns `out.detach()` ("both plain tensors": the writer read "plain" as "detached"). The
values are right, but `out` is no longer `f(*primals)`: when a primal requires grad, f(*primals) carries the
graph back to it (and so does the primal that unpack_dual gives), while this `out` has requires_grad False and
`out.sum().backward()` raises, so a caller cannot differentiate through the value part of dual_jvp.
The text: "Return `(out, jvp_out)`: `out` is `f(*primals)`" and "in the caller's grad mode: ... as in
`f(*primals)`"; wrong input: dual_jvp(torch.sin, (a,), (t,)) with a.requires_grad = True: out.requires_grad is
False (f(a) gives True, with grad cos(a))."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "fail", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "    return out, tangent\n",
    "    return out.detach(), tangent\n"))}
