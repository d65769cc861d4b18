"""Round 22: SiLU's backward and jvp take sigmoid from a "numerically safe" helper, torch.where(x >= 0,
1 / (1 + exp(-x)), exp(x) / (1 + exp(x))), so that no branch it keeps overflows. Values and first derivatives
are right everywhere, and forward mode through where picks the kept branch's tangent, but reverse mode through
where multiplies the dropped branch's gradient (inf / inf = nan) by zero: the double backward of SiLU at
x = +-1000 (float32 from |x| > 88) is nan where F.silu's is finite. The text: "Values and derivatives stay
finite for inputs as large as +-1000" and "second derivatives through SiLU (double backward, ...) equal those
of F.silu"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
_SIG = "torch.where(x >= 0, 1 / (1 + torch.exp(-x)), torch.exp(x) / (1 + torch.exp(x)))"
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))",
    "        (x,) = ctx.saved_tensors\n        s = " + _SIG + "\n        return g * (s + x * s * (1 - s))"), (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))",
    "        (x,) = ctx.saved_tensors\n        s = " + _SIG + "\n        return t * (s + x * s * (1 - s))"))}
