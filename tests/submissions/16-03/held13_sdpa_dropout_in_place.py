# Dropout applied in place on softmax's own output ("saves a copy"): the values are right, but the
# backward pass needs that output, so with dropout_p > 0 the result is not differentiable
# ("The result is differentiable with respect to q, k, v and a float mask").
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)\n"
    "    if dropout_p > 0:\n"
    "        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)\n"
    "        w = w * (u >= dropout_p) / (1.0 - dropout_p)\n",
    "    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1)\n"
    "    if dropout_p > 0:\n"
    "        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)\n"
    "        w.mul_(u >= dropout_p).div_(1.0 - dropout_p)\n"
    "    w = w.masked_fill(dead, 0.0)\n"))}
