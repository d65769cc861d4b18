"""Held-out round 24, correct in an unusual way: accumulate_grads puts the short micro-batch FIRST (sizes
r, s, s, ... with s = ceil(N / k)), walks explicit index bounds, weights each micro-loss by n_j / N and sums the
weighted Python-float losses with math.fsum. The text asks for at most k consecutive micro-batches of at most
ceil(N / k) samples, in order; it does not say which one is the smaller."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    size = -(-n // micro_batches)\n"
     "    total = 0.0\n"
     "    for xb, yb in zip(inputs.split(size), targets.split(size)):\n"
     "        loss = loss_fn(model(xb), yb)\n"
     "        weight = xb.shape[0] / n\n"
     "        (loss * weight).backward()\n"
     "        total += loss.item() * weight\n"
     "    return total\n",
     "    size = math.ceil(n / micro_batches)\n"
     "    count = math.ceil(n / size)\n"
     "    first = n - size * (count - 1)\n"
     "    bounds = [0] + [first + size * j for j in range(count)]\n"
     "    parts = []\n"
     "    for lo, hi in zip(bounds[:-1], bounds[1:]):\n"
     "        loss = loss_fn(model(inputs[lo:hi]), targets[lo:hi])\n"
     "        (loss * ((hi - lo) / n)).backward()\n"
     "        parts.append(loss.item() * (hi - lo) / n)\n"
     "    return math.fsum(parts)\n"))}
