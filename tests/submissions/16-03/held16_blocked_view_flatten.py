"""Known-wrong blocked_attention (round 16): flattens the leading dimensions with .view, which raises for
q, k or v that are not contiguous (a transposed or sliced tensor), where F.scaled_dot_product_attention
returns a result (the text: takes q (..., L, E), k and v and returns what PyTorch returns)."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited("16-03", "blocked_impl",
    ("    L, S = q.shape[-2], k.shape[-2]\n",
     "    L, S = q.shape[-2], k.shape[-2]\n"
     "    lead = q.shape[:-2]\n"
     "    q, k, v = q.view(-1, L, q.shape[-1]), k.view(-1, S, k.shape[-1]), v.view(-1, S, v.shape[-1])\n"),
    ("    return acc / l\n", "    return (acc / l).view(*lead, L, v.shape[-1])\n"))}
EXPECT = {"blocked": "fail"}
