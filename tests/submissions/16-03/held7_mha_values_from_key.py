"""Wrong: "forward(query, key, value, ...) ... cross attention (keys and values from a sequence of another
length S)". This layer projects the values from `key` instead of `value`: right whenever key and value
are the same tensor (self attention, or cross attention with key = value), wrong as soon as a caller
passes different keys and values."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", ("heads(value, w_v, b_v, S)", "heads(key, w_v, b_v, S)"))}
