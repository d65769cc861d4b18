"""Known-wrong MultiHeadAttention (round 12): decides "self attention" by shape (query, key and value of one
shape) and then projects the query three times, ignoring key and value. Cross attention whose key sequence
happens to have the query's length S = L is wrong ("keys and values from a sequence of another length S":
another sequence, of a length that may differ)."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("q, k, v = heads(query, w_q, b_q, L), heads(key, w_k, b_k, S), heads(value, w_v, b_v, S)",
     "if query.shape == key.shape == value.shape:  # self attention: one input, three projections\n"
     "            q, k, v = (heads(query, w, b, L) for w, b in ((w_q, b_q), (w_k, b_k), (w_v, b_v)))\n"
     "        else:\n"
     "            q, k, v = heads(query, w_q, b_q, L), heads(key, w_k, b_k, S), heads(value, w_v, b_v, S)"))}
EXPECT = {"mha": "fail"}
