"""Held-out round 11, unusual but correct: per_sample_grads adds the batch dimension of one before vmap
(x.unsqueeze(1), y.unsqueeze(1): vmap then hands each example over as a batch of one, x[i:i+1]), passes only
the trainable parameters to functional_call (frozen parameters and buffers are taken from the model, as the
text allows: "those you do not pass, it takes from the model") and differentiates the dict by argnums=0."""

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": '''def per_sample_grads(model, loss_fn, x, y):
    """{name: (N, *shape) per-example gradients} for each parameter of model that requires grad."""
    trainable = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}

    def loss_batch_of_one(p, xb, yb):
        return loss_fn(functional_call(model, p, (xb,)), yb)

    return vmap(grad(loss_batch_of_one, argnums=0), in_dims=(None, 0, 0))(trainable, x.unsqueeze(1), y.unsqueeze(1))
'''}
