"""Known-wrong zero3_step (held-out round 14): keeps the moments in state but each layer's step count in a dict of
the notebook's module, so a fresh state dict after an earlier run on the same rank starts from zero moments with
the earlier run's step count (wrong bias corrections: "state is a dict, empty on the first call ... keep the step
counts and the moments of this rank's shards there")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "def zero3_step(", "_Z3_STEP = {}  # layer -> step count\n\n\ndef zero3_step("), (
    "        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)\n",
    "        st = state.setdefault(i, {})\n"
    "        if i in _Z3_STEP:  # the step count of layer i lives in this module\n"
    "            st.setdefault(\"exp_avg\", torch.zeros_like(shards[i]))\n"
    "            st.setdefault(\"exp_avg_sq\", torch.zeros_like(shards[i]))\n"
    "            st[\"step\"] = _Z3_STEP[i]\n"
    "        _adamw_shard(shards[i], g, st, lr, betas, eps, weight_decay)\n"
    "        _Z3_STEP[i] = st.pop(\"step\")\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
