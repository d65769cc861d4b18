"""Gap round (issue 39), "positions 0 .. length - 1": the table is reshaped with -1, which fails for length 0 (an
empty table of shape (0, d_model) is the answer)."""
from course.grading.class_run.submissions import edited

EXPECT = {"embed": "fail"}
CELLS = {"embed_impl": edited("16-03", "embed_impl", (
    ".reshape(length, d_model).to(dtype)", ".reshape(length, -1).to(dtype)"))}
