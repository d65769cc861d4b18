"""Held-out round 3: SiLU's jvp reads sigmoid(x) computed once in setup_context (saved for forward), while
backward recomputes it from x. First derivatives are right and backward is differentiable, but the jvp
formula is a constant to any outer transform: jacfwd(jacfwd(SiLU.apply)) and jacrev(jacfwd(SiLU.apply))
differ from F.silu's second derivatives (the task says second derivatives through SiLU equal F.silu's)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl",
    ("ctx.save_for_forward(x)\n", "ctx.save_for_forward(x, torch.sigmoid(x))\n"),
    ("(x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return t *", "x, s = ctx.saved_tensors\n        return t *"))}
