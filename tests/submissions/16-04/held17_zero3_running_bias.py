"""Known-wrong zero3_step (held-out round 17): the bias corrections are running products of the betas kept in state
(TensorFlow's beta1_power), right while the betas stay fixed, but a call after the caller changed betas corrects
with the product of all earlier calls' betas instead of this call's betas to the power t ("exactly what one step of
torch.optim.AdamW (with these lr, betas, eps and weight_decay) gives ... after every call of a run of several
steps")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)\n",
    "        st, (b1, b2) = state.setdefault(i, {}), betas\n"
    "        if not st:\n"
    "            st.update(exp_avg=torch.zeros_like(g), exp_avg_sq=torch.zeros_like(g), b1_pow=1.0, b2_pow=1.0)\n"
    "        st[\"b1_pow\"] *= b1\n"
    "        st[\"b2_pow\"] *= b2\n"
    "        shards[i].mul_(1 - lr * weight_decay)\n"
    "        st[\"exp_avg\"].lerp_(g, 1 - b1)\n"
    "        st[\"exp_avg_sq\"].mul_(b2).addcmul_(g, g, value=1 - b2)\n"
    "        denom = (st[\"exp_avg_sq\"].sqrt() / math.sqrt(1 - st[\"b2_pow\"])).add_(eps)\n"
    "        shards[i].addcdiv_(st[\"exp_avg\"], denom, value=-lr / (1 - st[\"b1_pow\"]))\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
