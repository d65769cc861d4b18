"""Brings the updated shards back with W broadcasts (one per owner) instead of one all-gather; each rank sends
its shard to every other rank, and the text asks for an all-gather as before."""
EXPECT = {'zero2': 'fail'}
CELLS = {
    'zero2_impl': '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W, r = dist.get_world_size(), dist.get_rank()
    with torch.no_grad():
        pieces = [flatten_shard([q.grad for q in params], W, i) for i in range(W)]
        g_mine = torch.empty_like(pieces[0])
        dist.reduce_scatter(g_mine, pieces)
        g_mine /= W
        p = flatten_shard([q.detach() for q in params], W, r)
        _adamw_shard(p, g_mine, state, lr, betas, eps, weight_decay)
        out = [p.clone() if i == r else torch.empty_like(p) for i in range(W)]
        for i in range(W):
            dist.broadcast(out[i], src=i)
        full = torch.cat(out)
    _write_back(params, full)
''',
}
