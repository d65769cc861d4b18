"""Known-wrong scaled_dot_product_attention (round 12): dropout keeps the weights where u > dropout_p, where
the text says u >= dropout_p; a weight whose draw equals dropout_p exactly is dropped instead of kept."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", ("(u >= dropout_p)", "(u > dropout_p)"))}
EXPECT = {"sdpa": "fail"}
