"""Known-wrong MultiHeadAttention (held-out round 19, cross attention with key != value): the keys and the
values are both projected from `key` (nn.MultiheadAttention's fast path for `key is value`, copied without its
test), so the `value` argument is never read. Self attention and cross attention with key = value are right;
with values that differ from the keys the output is wrong, where section 2 says V = value W_v^T + b_v and the
task says the keys and values come from the other sequence."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("        q, k, v = heads(query, w_q, b_q, L), heads(key, w_k, b_k, S), heads(value, w_v, b_v, S)",
     "        q = heads(query, w_q, b_q, L)\n"
     "        k, v = heads(key, w_k, b_k, S), heads(key, w_v, b_v, S)  # keys and values: the other sequence"))}
EXPECT = {"mha": "fail"}
