"""Wrong: "Keep moments for this rank's shard only ...: the tensors in state hold at most 2·⌈n/W⌉ elements
in all ..., plus at most one for a step count." This zero1_step keeps a torch.optim.AdamW in state, built
once over its own copy of the shard (hyperparameters refreshed on every call), so state holds the shard
copy as well as the two moments and the step: 3·⌈n/W⌉ + 1 elements."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": edited("16-04", "zero1_impl", ("    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n", '''\
    if "adamw" not in state:
        state["adamw"] = torch.optim.AdamW([shard.clone()], lr=lr, betas=betas, eps=eps,
                                           weight_decay=weight_decay, foreach=False)
    opt = state["adamw"]
    opt.param_groups[0].update(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
    own = opt.param_groups[0]["params"][0]
    with torch.no_grad():
        own.copy_(shard)
    own.grad = g
    opt.step()
    own.grad = None
    shard = own.detach().clone()
'''))}
