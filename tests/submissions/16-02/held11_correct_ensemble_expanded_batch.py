"""Held-out round 11, unusual but correct: ensemble_forward turns the shared batch into a per-model one
(x.expand(M, *x.shape), a view, so the gradient still reaches x) and always maps over dimension 0 of x; the
architecture is a deep copy of models[0] left on its device (its own data is never read: functional_call
replaces every parameter and buffer)."""

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"ensemble_impl": '''def ensemble_forward(models, x, per_model=False):
    """(M, B, ...) outputs of M models of one architecture, computed in one vmap call."""
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0])
    xs = x if per_model else x.expand(len(models), *x.shape)
    return vmap(lambda p, b, xb: functional_call(base, (p, b), (xb,)))(params, buffers, xs)
'''}
