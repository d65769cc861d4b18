"""Normalises over the queries (dim=-2) instead of the keys: each key's weights sum to 1 across queries."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", ("torch.softmax(scores.masked_fill(dead, 0.0), dim=-1)",
                                                    "torch.softmax(scores.masked_fill(dead, 0.0), dim=-2)"))}
