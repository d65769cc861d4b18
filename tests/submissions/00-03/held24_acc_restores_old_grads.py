"""Held-out round 24: accumulate_grads sets every .grad to None, backpropagates each micro-batch's loss times
its sample count (a sum of per-sample losses), divides the new .grad by N at the end and adds the old .grad
back, but only where the new .grad is not None. Breaks "Afterwards every parameter's .grad holds what it held
before the call plus the gradient ... as a single full-batch backward() would": a parameter the forward does not
use (or a frozen one) that held a .grad before the call ends with .grad None instead of its old .grad."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    total = 0.0\n"
     "    for xb, yb in zip(inputs.split(size), targets.split(size)):\n"
     "        loss = loss_fn(model(xb), yb)\n"
     "        weight = xb.shape[0] / n\n"
     "        (loss * weight).backward()\n"
     "        total += loss.item() * weight\n"
     "    return total\n",
     "    before = {p: p.grad for p in model.parameters()}\n"
     "    for p in before:\n"
     "        p.grad = None\n"
     "    total = 0.0\n"
     "    for xb, yb in zip(inputs.split(size), targets.split(size)):\n"
     "        loss = loss_fn(model(xb), yb)\n"
     "        (loss * xb.shape[0]).backward()\n"
     "        total += loss.item() * xb.shape[0]\n"
     "    for p, old in before.items():\n"
     "        if p.grad is not None:\n"
     "            p.grad.div_(n)\n"
     "            if old is not None:\n"
     "                p.grad.add_(old)\n"
     "    return total / n\n"))}
