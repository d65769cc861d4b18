"""Known-wrong scaled_dot_product_attention (round 23): the dropout keeps a weight where `u > dropout_p`
instead of `u >= dropout_p`. In float32 and float64 a draw equal to dropout_p almost never happens, but
float16's torch.rand takes about 2000 distinct values, so with dropout_p = 0.5 roughly one weight in 2400
is dropped where the text says to keep it ("keep the weights where u >= dropout_p")."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("w = w * (u >= dropout_p) / (1.0 - dropout_p)", "w = w * (u > dropout_p) / (1.0 - dropout_p)"))}
EXPECT = {"sdpa": "fail"}
