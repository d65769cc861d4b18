"""Known-wrong scaled_dot_product_attention (round 16): returns early for L == 0 with an empty tensor whose
leading shape is q's, not the leading shape broadcast with k and v: q (1, 0, 4), k (3, 5, 4), v (3, 5, 2)
gives (1, 0, 2) where the text asks for (3, 0, 2). (PyTorch 2.14 itself returns (1, 0, 2): the text said
"as PyTorch's is" until round 16, which made this answer right; it now names the broadcast shape.)"""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl",
    ("    L, S = q.shape[-2], k.shape[-2]\n",
     "    L, S = q.shape[-2], k.shape[-2]\n"
     "    if L == 0:  # no query: nothing to attend to\n"
     "        return q.new_zeros(q.shape[:-1] + (v.shape[-1],))\n"))}
EXPECT = {"sdpa": "fail"}
