"""Known-wrong patch_embed (round 29): the bias is added detached (out + bias.detach()), so the values and
the gradients of the images and the weight are right but no gradient reaches the bias. The text: "Both are
differentiable where their inputs are (the images, the weight and the bias)" (goes wrong on any bias with
requires_grad=True: its .grad stays None)."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    return out + bias if bias is not None else out\n",
     "    return out + bias.detach() if bias is not None else out\n"))}
EXPECT = {"embed": "fail"}
