"""Known-wrong MultiHeadAttention (round 23): the values are projected from `key` instead of `value`, as if
cross attention always passed the same tensor twice. Self attention (query is key is value) and cross
attention with key = value are right; with a value different from the key the output is not
nn.MultiheadAttention's ("forward(query, key, value, ...) returns ... the output ... cross attention (keys and
values from another sequence)")."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("heads(value, w_v, b_v, S)", "heads(key, w_v, b_v, S)"))}
EXPECT = {"mha": "fail"}
