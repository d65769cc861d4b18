"""Reduce-scatter written as dist.reduce of the whole flat gradient to rank 0 followed by dist.scatter of the
shards: rank 0 holds the full gradient and the bytes exceed the reduce-scatter's."""
EXPECT = {'zero2': 'fail'}
CELLS = {
    'zero2_impl': '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W, r = dist.get_world_size(), dist.get_rank()
    with torch.no_grad():
        pieces = [flatten_shard([q.grad for q in params], W, i) for i in range(W)]
        g_mine = torch.empty_like(pieces[0])
        flat = torch.cat(pieces)
        dist.reduce(flat, dst=0)
        dist.scatter(g_mine, list(flat.split(len(g_mine))) if r == 0 else None, src=0)
        g_mine /= W
        p = flatten_shard([q.detach() for q in params], W, r)
        _adamw_shard(p, g_mine, state, lr, betas, eps, weight_decay)
        out = [torch.empty_like(p) for _ in range(W)]
        dist.all_gather(out, p)
        full = torch.cat(out)
    _write_back(params, full)
''',
}
