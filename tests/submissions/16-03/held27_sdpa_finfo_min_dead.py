"""Known-wrong scaled_dot_product_attention (round 27): it finds the rows "with no key left" as the rows
whose largest score is at or below torch.finfo(dtype).min (the value Hugging Face masks use), not only -inf.
A float mask whose row is finfo.min for every key (a legal bias: "a float tensor added to the scores", "0
keeps a pair, -inf removes it, anything else biases it") leaves every key in play with equal scores, and
PyTorch returns the plain average of v; this answer returns zeros there. The text: "A query whose keys are
all masked out gets an output row of zeros" (masked out = a score of -inf), and the float mask is "added to
the scores" (goes wrong on a float mask row of finfo.min)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    dead = torch.isneginf(scores).all(dim=-1, keepdim=True)  # rows with no key left",
     "    dead = scores.amax(dim=-1, keepdim=True) <= torch.finfo(scores.dtype).min  # rows with no key left"))}
EXPECT = {"sdpa": "fail"}
