"""Calls model.zero_grad() first 'to start clean': the model's .grad fields are changed (the text: left as they
were)."""
EXPECT = {'per_sample': 'fail'}
CELLS = {
    'per_sample_impl': '''
def per_sample_grads(model, loss_fn, x, y):
    model.zero_grad()
    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, buffers, xi, yi):
        out = functional_call(model, (params, buffers), (xi.unsqueeze(0),))
        return loss_fn(out, yi.unsqueeze(0))

    return vmap(grad(loss_one), in_dims=(None, None, 0, 0))(params, buffers, x, y)
''',
}
