"""ZeRO-3 with one AdamW state for all layers' shards at once: the step count goes up once per layer, so the
bias corrections of every step but the first are wrong (and the moments of different shards get mixed)."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)\n",
    "        st = state.setdefault(i, {})\n"
    "        if 'step' in st:\n"
    "            st['step'] = state['shared_step']\n"
    "        _adamw_shard(shards[i], g, st, lr, betas, eps, weight_decay)\n"
    "        state['shared_step'] = st['step']\n"))}
