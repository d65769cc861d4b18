"""ensemble_forward calls vmap with chunk_size=1 to keep memory flat: vmap then runs the module once per model,
so the number of forward runs grows with the number of models (the text: it does not)."""
EXPECT = {"ensemble": "fail"}
CELLS = {
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")

    def one(p, b, x):
        return functional_call(base, (p, b), (x,))

    return vmap(one, in_dims=(0, 0, 0 if per_model else None), chunk_size=1)(params, buffers, x)
''',
}
