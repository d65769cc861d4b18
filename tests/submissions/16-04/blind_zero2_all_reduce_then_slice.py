"""ZeRO-2 that all-reduces the flat padded gradient and then keeps its own slice: right numbers, but the
text says reduce-scatter and no all_reduce anywhere (and it sends more)."""
EXPECT = {'zero2': 'fail'}
CELLS = {
    'zero2_impl': '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W, r = dist.get_world_size(), dist.get_rank()
    with torch.no_grad():
        pieces = [flatten_shard([q.grad for q in params], W, i) for i in range(W)]
        g_mine = torch.empty_like(pieces[0])
        flat = torch.cat(pieces)
        dist.all_reduce(flat)
        g_mine = flat[r * len(g_mine):(r + 1) * len(g_mine)].clone()
        g_mine /= W
        p = flatten_shard([q.detach() for q in params], W, r)
        _adamw_shard(p, g_mine, state, lr, betas, eps, weight_decay)
        out = [torch.empty_like(p) for _ in range(W)]
        dist.all_gather(out, p)
        full = torch.cat(out)
    _write_back(params, full)
''',
}
