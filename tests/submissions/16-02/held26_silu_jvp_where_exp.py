"""Round 26: SiLU's jvp writes f'(x) with exp(-x) (1 - s = exp(-x) * s) and guards the overflow of exp(-x) with
torch.where(x > -80, formula, 0). The values of jvp are right everywhere (f'(x) is 0 to the dtype below -80),
and backward is the reference's, but where's unselected branch is inf * 0 = NaN below -89 (float32) or -709
(float64), and reverse mode through jvp (grad of jvp, jacrev of jacfwd) multiplies that NaN by where's zero
gradient: the second derivative through jvp is NaN at x = -1000 where F.silu's is 0. The text: "second
derivatives through `SiLU` (double backward, `jvp` of `grad`, `grad` of `jvp`) equal those of `F.silu`" and
"Values and derivatives stay finite for inputs as large as ±1000 in float32 and float64"; wrong input:
grad(lambda z: jvp(SiLU.apply, (z,), (t,))[1].sum())(x) at x = -1000 (float32 or float64) or x = -100
(float32)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        return t * (s + x * s * (1 - s))\n",
    "        e = torch.exp(-x)\n"
    "        return t * torch.where(x > -80, s + x * e * s * s, torch.zeros_like(x))\n"))}
