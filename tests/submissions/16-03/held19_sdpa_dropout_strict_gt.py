"""Known-wrong scaled_dot_product_attention (held-out round 19, the keep rule's boundary): the dropout keeps a
weight where u > dropout_p ("drop with probability p" read as u <= p), where the text says keep the weights
where u >= dropout_p. A float32 draw equals a dyadic p almost never, but a float16 draw lands on 0.5 about once
in 2,000 values, and such a weight is dropped instead of kept."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("        w = w * (u >= dropout_p) / (1.0 - dropout_p)",
     "        w = w * (u > dropout_p) / (1.0 - dropout_p)  # drop where u <= p"))}
EXPECT = {"sdpa": "fail"}
