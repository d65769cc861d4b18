"""Known-wrong scaled_dot_product_attention (round 29): the float mask is added detached
(scores + attn_mask.detach()), so values and the gradients of q, k and v are right but no gradient reaches a
float mask that requires one (a learned relative-position bias or ALiBi slope would never train). The
text: "The result is differentiable with respect to q, k, v and a float mask, with PyTorch's gradients"
(goes wrong on any float mask with requires_grad=True: its .grad stays None)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("            scores = scores + attn_mask\n",
     "            scores = scores + attn_mask.detach()  # the mask is a constant bias\n"))}
EXPECT = {"sdpa": "fail"}
