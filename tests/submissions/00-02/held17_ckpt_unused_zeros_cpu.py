"""Held-out round 17: backward gives a parameter the block never used `torch.zeros(p.shape)`, built without
`device=` (nor dtype=): on the CPU autograd casts it to the parameter's dtype and all is right, but for a block on
a GPU the zeros are on the CPU and backward raises "invalid gradient ... expected device cuda:0 but got cpu".
The text: "A parameter the block never uses gets `None` (or zeros)", and the gradients "match those of a plain
`block(x)`", whatever device the block is on."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("        return (None, gx, *[next(grads) if p.requires_grad else None for p in params])\n",
     "        gp = [next(grads) if p.requires_grad else None for p in params]\n"
     "        gp = [torch.zeros(p.shape) if g is None and p.requires_grad else g for g, p in zip(gp, params)]\n"
     "        return (None, gx, *gp)\n"))}
