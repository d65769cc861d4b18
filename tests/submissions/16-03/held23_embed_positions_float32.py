"""Known-wrong sinusoidal_positions (round 23): the table is always returned in float32 (the default), the
dtype argument is ignored; the angles are still computed in float64. For dtype=torch.float64 the values
are rounded to float32 (errors near 1e-8) and the dtype is wrong, where the text says to cast the result to
dtype at the end."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    (".reshape(length, d_model).to(dtype)", ".reshape(length, d_model).float()"))}
EXPECT = {"embed": "fail"}
