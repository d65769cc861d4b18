"""A loop of functional_call + grad over the examples, stacked: right numbers, but the model runs N times (the
text: vmap, calls do not grow with N)."""
EXPECT = {'per_sample': 'fail'}
CELLS = {
    'per_sample_impl': '''
def per_sample_grads(model, loss_fn, x, y):
    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, xi, yi):
        return loss_fn(functional_call(model, (params, buffers), (xi,)), yi)

    rows = [grad(loss_one)(params, x[i:i + 1], y[i:i + 1]) for i in range(x.shape[0])]
    return {k: torch.stack([r[k] for r in rows]) for k in params}
''',
}
