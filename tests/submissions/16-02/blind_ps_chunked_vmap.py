"""per_sample_grads passes chunk_size=4 to vmap to bound memory: vmap then runs the model once per chunk of
four examples, so the number of model calls grows with N (the text: it does not)."""
EXPECT = {"per_sample": "fail"}
CELLS = {
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, buffers, x, y):
        out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
        return loss_fn(out, y.unsqueeze(0))

    return vmap(grad(loss_one), in_dims=(None, None, 0, 0), chunk_size=4)(params, buffers, x, y)
''',
}
