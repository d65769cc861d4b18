"""The online softmax without the rescale: l and acc keep terms relative to an old maximum when it grows."""
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    """        l = c * l + p.sum(dim=-1, keepdim=True)
        acc = c * acc + p @ v[..., start:stop, :]""",
    """        l = l + p.sum(dim=-1, keepdim=True)
        acc = acc + p @ v[..., start:stop, :]"""))}
