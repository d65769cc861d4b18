"""Unusual but correct (gap round): self.blocks is an nn.Sequential iterated by hand instead of an
nn.ModuleList (same names blocks.0, blocks.1, ..., same outputs). Written as a wrong answer aimed at
"self.blocks, an nn.ModuleList"; the existing unusual_correct's nn.ModuleDict showed the course accepts
any registered container, so the text now says that ("a registered container (an nn.ModuleList is
simplest)") and this example must keep full marks."""
from course.grading.class_run.submissions import edited

CELLS = {"skipmlp_impl": edited("15-03", "skipmlp_impl",
    ("        self.blocks = nn.ModuleList()\n", "        self.blocks = nn.Sequential()\n"))}
EXPECT = {"skipmlp": "pass"}
