"""Held-out round 3: per_sample_grads turns requires_grad off on every parameter while it works and back on
afterwards with model.requires_grad_(True): a frozen parameter comes back trainable (the task says the
model's parameters are left as they were)."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    names = [k for k, p in model.named_parameters() if p.requires_grad]
    model.requires_grad_(False)
    try:
        params = {k: p for k, p in model.named_parameters() if k in names}

        def loss_one(params, xi, yi):
            return loss_fn(functional_call(model, params, (xi.unsqueeze(0),)), yi.unsqueeze(0))

        return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)
    finally:
        model.requires_grad_(True)
'''}
