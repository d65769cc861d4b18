"""per_sample_grads differentiates every parameter, then names the results by zipping the trainable names with
the gradients in order: when a frozen parameter comes before a trainable one, names and gradients are
shifted (a frozen entry's gradient is reported under a trainable one's name)."""
EXPECT = {"per_sample": "fail"}
CELLS = {
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    names = [k for k, p in model.named_parameters() if p.requires_grad]
    params = {k: p.detach() for k, p in model.named_parameters()}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, buffers, x, y):
        out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
        return loss_fn(out, y.unsqueeze(0))

    grads = vmap(grad(loss_one), in_dims=(None, None, 0, 0))(params, buffers, x, y)
    return dict(zip(names, grads.values()))
''',
}
