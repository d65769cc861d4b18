"""Known-wrong accumulate_grads (gap round): starts by giving every parameter whose .grad is None a zero
.grad, so a frozen parameter (requires_grad=False) or one the loss does not reach ends with a zero
tensor where a single full-batch backward() leaves None ("as a single full-batch backward() would")."""
from course.grading.class_run.submissions import edited

CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl",
    ("    total = 0.0\n",
     "    total = 0.0\n    for p in model.parameters():\n        if p.grad is None:\n"
     "            p.grad = torch.zeros_like(p)\n"))}
EXPECT = {"accumulate": "fail"}
