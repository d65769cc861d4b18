"""Known-wrong zero3_step (held-out round 29): the bias corrections are kept as running products in `state` (Python
floats: state[i]["b1t"] *= beta1 each call) instead of beta ** t with this call's betas. With constant betas the two
agree (up to rounding); when the caller changes the betas between calls they do not. The text says "The caller may
change lr and betas between calls, as in Exercise 2: each call uses its own (bias corrections with this call's
betas)". Input on which it goes wrong: two steps with betas=(0.9, 0.999) then (0.5, 0.9): the second step divides
by 1 - 0.9·0.5 and 1 - 0.999·0.9 instead of 1 - 0.5² and 1 - 0.9²."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)\n",
    "        st, (b1, b2) = state.setdefault(i, {}), betas\n"
    "        if \"step\" not in st:\n"
    "            st[\"step\"], st[\"b1t\"], st[\"b2t\"] = 0, 1.0, 1.0\n"
    "            st[\"exp_avg\"] = torch.zeros_like(shards[i])\n"
    "            st[\"exp_avg_sq\"] = torch.zeros_like(shards[i])\n"
    "        st[\"step\"] += 1\n"
    "        st[\"b1t\"] *= b1\n"
    "        st[\"b2t\"] *= b2\n"
    "        m, v, p = st[\"exp_avg\"], st[\"exp_avg_sq\"], shards[i]\n"
    "        p.mul_(1 - lr * weight_decay)\n"
    "        m.lerp_(g, 1 - b1)\n"
    "        v.mul_(b2).addcmul_(g, g, value=1 - b2)\n"
    "        denom = (v.sqrt() / math.sqrt(1 - st[\"b2t\"])).add_(eps)\n"
    "        p.addcdiv_(m, denom, value=-lr / (1 - st[\"b1t\"]))\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
