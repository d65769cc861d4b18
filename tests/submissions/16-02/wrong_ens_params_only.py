"""Stacks the parameters only; every model then runs with the buffers (BatchNorm running statistics) of the
first one."""
EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": """
def ensemble_forward(models, x, per_model=False):
    params, _ = stack_module_state(models)
    base = copy.deepcopy(models[0])

    def one(p, xb):
        return functional_call(base, p, (xb,))

    return vmap(one, in_dims=(0, 0 if per_model else None))(params, x)
"""}
