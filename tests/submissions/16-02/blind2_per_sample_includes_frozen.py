"""Differentiates every named parameter, frozen ones included (the text: only those that require grad)."""
EXPECT = {'per_sample': 'fail'}
CELLS = {
    'per_sample_impl': '''
def per_sample_grads(model, loss_fn, x, y):
    params = {k: p.detach() for k, p in model.named_parameters()}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, buffers, xi, yi):
        out = functional_call(model, (params, buffers), (xi.unsqueeze(0),))
        return loss_fn(out, yi.unsqueeze(0))

    return vmap(grad(loss_one), in_dims=(None, None, 0, 0))(params, buffers, x, y)
''',
}
