"""Held-out round 18, correct in an unusual way: accumulate_grads walks slice bounds built with range(),
backpropagates each micro-loss through torch.autograd.backward with grad_tensors holding the weight n_j / N
(instead of multiplying the loss), and sums the weighted Python-float losses with math.fsum."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    inputs, targets = batch\n"
     "    n = inputs.shape[0]\n"
     "    size = -(-n // micro_batches)\n"
     "    total = 0.0\n"
     "    for xb, yb in zip(inputs.split(size), targets.split(size)):\n"
     "        loss = loss_fn(model(xb), yb)\n"
     "        weight = xb.shape[0] / n\n"
     "        (loss * weight).backward()\n"
     "        total += loss.item() * weight\n"
     "    return total\n",
     "    inputs, targets = batch\n"
     "    n = len(inputs)\n"
     "    bounds = [*range(0, n, math.ceil(n / micro_batches)), n]\n"
     "    parts = []\n"
     "    for lo, hi in zip(bounds[:-1], bounds[1:]):\n"
     "        loss = loss_fn(model(inputs[lo:hi]), targets[lo:hi])\n"
     "        torch.autograd.backward(loss, grad_tensors=torch.full_like(loss, (hi - lo) / n))\n"
     "        parts.append(loss.item() * (hi - lo) / n)\n"
     "    return math.fsum(parts)\n"))}
