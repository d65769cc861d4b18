"""Known-wrong blocked_attention (round 19s, no query): the leading dimensions are flattened with
reshape(-1, L, E) and restored at the end. Every shape with a query is right; for L = 0 the reshape of an empty q
cannot infer -1 and raises, where the text lets L and the leading dimensions be 0 (the result is then empty, as
F.scaled_dot_product_attention returns)."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("    L, S = q.shape[-2], k.shape[-2]\n",
     "    L, S = q.shape[-2], k.shape[-2]\n"
     "    lead = q.shape[:-2]\n"
     "    q, k, v = q.reshape(-1, L, q.shape[-1]), k.reshape(-1, S, k.shape[-1]), v.reshape(-1, S, v.shape[-1])\n"),
    ("    return acc / l\n",
     "    return (acc / l).reshape(lead + (L, v.shape[-1]))\n"))}
EXPECT = {"blocked": "fail"}
