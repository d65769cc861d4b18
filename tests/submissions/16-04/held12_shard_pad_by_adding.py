# Fills the zero buffer with += instead of a copy: 0.0 + (-0.0) is +0.0, so a signed zero of the
# inputs comes back as +0.0 (the piece is the concatenated elements, padded with zeros).
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    padded[: flat.numel()] = flat\n",
    "    padded[: flat.numel()] += flat\n"))}
