# zero3_step keeps the moments in state but the per-layer step counts in a module-level dict, so a
# second run on the same ranks (a fresh state dict) starts at step 4 ("keep the step counts ... there").
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "def zero3_step(",
    "_Z3_STEPS = {}\n\n\ndef zero3_step("), (
    "        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)\n",
    "        st = state.setdefault(i, {})\n"
    "        if \"exp_avg\" not in st:\n"
    "            st[\"exp_avg\"], st[\"exp_avg_sq\"] = torch.zeros_like(g), torch.zeros_like(g)\n"
    "        t = _Z3_STEPS[i] = _Z3_STEPS.get(i, 0) + 1\n"
    "        b1, b2 = betas\n"
    "        m, v = st[\"exp_avg\"], st[\"exp_avg_sq\"]\n"
    "        shards[i].mul_(1 - lr * weight_decay)\n"
    "        m.lerp_(g, 1 - b1)\n"
    "        v.mul_(b2).addcmul_(g, g, value=1 - b2)\n"
    "        denom = (v.sqrt() / math.sqrt(1 - b2 ** t)).add_(eps)\n"
    "        shards[i].addcdiv_(m, denom, value=-lr / (1 - b1 ** t))\n"))}
