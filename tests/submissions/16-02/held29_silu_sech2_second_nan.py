"""Round 29: SiLU's backward and jvp write sigma'(x) = s * (1 - s) as the textbook identity
1 / (4 cosh^2(x / 2)). First derivatives are right and finite everywhere (cosh overflows to inf and 0.25 / inf
is 0), but autograd differentiates the formula again through cosh: sinh(x / 2) = inf times cosh^-3 = 0 gives
NaN, so second derivatives through SiLU are NaN in float32 for |x| >= about 180 (float64 stays finite).
The text: "second derivatives through `SiLU` (double backward, `jvp` of `grad`, `grad` of `jvp`) equal those of
`F.silu`" and "Values and derivatives stay finite for inputs as large as ±1000 in float32 and float64"; wrong
input: float32 x = [-1000., -200., 200., 1000.]: the double backward gives NaN where F.silu's gives 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        return g * (s + x * s * (1 - s))\n",
    "        return g * (s + x * 0.25 / torch.cosh(x / 2) ** 2)\n"), (
    "        return t * (s + x * s * (1 - s))\n",
    "        return t * (s + x * 0.25 / torch.cosh(x / 2) ** 2)\n"))}
