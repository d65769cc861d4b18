"""Held-out round 15 (strengthening): forward builds a mask skip = [False] * len(blocks) and sets skip[i] for every
i in drop except the two out-of-range indices the text names (-1 and anything >= len(widths)), so -2, -3, ... wrap
onto a real block and drop its branch. Exercise 1's text: "an index that no block has, such as -1 or len(widths),
drops nothing" (such as: any index no block has)."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"skipmlp_impl": edited("15-03", "skipmlp_impl", (
    "        drop = set(drop)\n        for i, block in enumerate(self.blocks):\n"
    "            x = block(x, skip_branch=i in drop)",
    "        skip = [False] * len(self.blocks)\n        for i in drop:\n"
    "            if i != -1 and i < len(self.blocks):\n                skip[i] = True\n"
    "        for i, block in enumerate(self.blocks):\n            x = block(x, skip_branch=skip[i])"))}
