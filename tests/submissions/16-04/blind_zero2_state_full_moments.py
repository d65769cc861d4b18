"""ZeRO-2 that keeps its moments for the whole flat parameter (updates all of it with the gathered full
gradient) although the reduce-scatter already gave it only its shard: it all-gathers the gradient shards."""
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
        out = [torch.empty_like(g_mine) for _ in range(W)]
        dist.all_gather(out, g_mine)
        g = torch.cat(out)
        p = torch.cat([flatten_shard([q.detach() for q in params], W, i) for i in range(W)])
        _adamw_shard(p, g, state, lr, betas, eps, weight_decay)
    _write_back(params, p)
''',
}
