"""The gradient of the whole batch's loss, repeated for every example: what backward() gives, not per-sample."""
EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": """
def per_sample_grads(model, loss_fn, x, y):
    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    g = grad(lambda p: loss_fn(functional_call(model, p, (x,)), y))(params)
    return {k: v.expand(len(x), *v.shape) for k, v in g.items()}
"""}
