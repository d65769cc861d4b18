"""per_sample_grads adds the batch dimension to x but not to y: loss_fn(model(x_i[None]), y_i). With mse and a
target of shape (2,) this broadcasts to the right value, but a loss that needs matching batch sizes
(cross_entropy with class targets of shape (N,)) fails on a (1, C) output and a 0-dim target."""
EXPECT = {"per_sample": "fail"}
CELLS = {
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, buffers, x, y):
        out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
        return loss_fn(out, y)

    return vmap(grad(loss_one), in_dims=(None, None, 0, 0))(params, buffers, x, y)
''',
}
