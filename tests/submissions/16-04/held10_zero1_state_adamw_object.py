"""Held-out round 10: zero1_step keeps a torch.optim.AdamW over a Parameter copy of its shard in state, so the
state holds the shard, both moments and a step tensor (3k + 1 elements, k = ceil(n/W)); the text says "the
tensors in state hold at most 2·⌈n/W⌉ elements in all, plus at most one for a step count"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "fail", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"zero1_impl": edited(
    "16-04", "zero1_impl",
    ("    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n    full = shard.new_empty(world * k)\n",
     "    if \"opt\" not in state:\n"
     "        state[\"shard\"] = torch.nn.Parameter(shard.clone())\n"
     "        state[\"opt\"] = torch.optim.AdamW([state[\"shard\"]], lr=lr, betas=betas, eps=eps,\n"
     "                                         weight_decay=weight_decay)\n"
     "    mine = state[\"shard\"]\n"
     "    with torch.no_grad():\n"
     "        mine.copy_(shard)\n"
     "    mine.grad = g\n"
     "    state[\"opt\"].step()\n"
     "    shard = mine.detach()\n"
     "    full = shard.new_empty(world * k)\n"))}
