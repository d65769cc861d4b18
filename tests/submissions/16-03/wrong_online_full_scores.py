"""Computes the whole score matrix first and only then walks it in tiles: right values, but it holds the
L x S scores that the online softmax exists to avoid."""
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    """    for start in range(0, S, block_size):
        stop = min(start + block_size, S)
        s = (q @ k[..., start:stop, :].transpose(-2, -1)) * scale""",
    """    full = (q @ k.transpose(-2, -1)) * scale
    for start in range(0, S, block_size):
        stop = min(start + block_size, S)
        s = full[..., start:stop]"""))}
