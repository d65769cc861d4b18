"""Known-wrong SkipMLP (gap round): with norm=False each block still normalises, through a LayerNorm
without affine parameters, so the state_dict has no norm keys but the output is normalised ("if
norm=False it has no normalisation parameters (use nn.Identity() or None)"; the output is
shortcut(x) + relu(fc(norm(x))) with norm the identity)."""
from course.grading.class_run.submissions import edited

CELLS = {"skipmlp_impl": edited("15-03", "skipmlp_impl",
    ("        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()",
     "        self.norm = nn.LayerNorm(d_in, elementwise_affine=norm)"))}
EXPECT = {"skipmlp": "fail"}
