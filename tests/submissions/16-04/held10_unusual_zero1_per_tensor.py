"""Held-out round 10, a correct answer written unusually: zero1_step all-reduces each parameter's gradient in
its own call (the text asks only that the gradients be averaged with dist.all_reduce), writes AdamW's formula
out by hand on its shard with a Python int step, and shares the shards with the list form of dist.all_gather."""
from course.grading.class_run.submissions import solution

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
_BODY = '''\
    world, rank = dist.get_world_size(), dist.get_rank()
    means = []
    for p in params:
        g = p.grad.detach().clone()
        dist.all_reduce(g)
        means.append(g / world)
    g = flatten_shard(means, world, rank)
    w = flatten_shard([p.detach() for p in params], world, rank)
    t = state.get("t", 0) + 1
    m = state.get("m", torch.zeros_like(w))
    v = state.get("v", torch.zeros_like(w))
    b1, b2 = betas
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    w = w * (1 - lr * weight_decay)
    w = w - (lr / (1 - b1 ** t)) * m / (v.sqrt() / math.sqrt(1 - b2 ** t) + eps)
    state["t"], state["m"], state["v"] = t, m, v
    pieces = [torch.empty_like(w) for _ in range(world)]
    dist.all_gather(pieces, w)
    _write_back(params, torch.cat(pieces))
'''
_REF = solution("16-04", "zero1_impl")
CELLS = {"zero1_impl": _REF[:_REF.index("    ### BEGIN SOLUTION")] + _BODY}
