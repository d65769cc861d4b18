"""Held-out round 3: ensemble_forward stacks only the parameters and runs a deep copy of models[0] with them,
so every model uses models[0]'s buffers (BatchNorm running statistics): wrong as soon as the models' buffers
differ (the task says row m is models[m](x))."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, _ = stack_module_state(models)
    base = copy.deepcopy(models[0])

    def one(p, xb):
        return functional_call(base, p, (xb,))

    return vmap(one, in_dims=(0, 0 if per_model else None))(params, x)
'''}
