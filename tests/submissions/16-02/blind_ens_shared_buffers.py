"""ensemble_forward stacks only the parameters and passes models[0]'s buffers unbatched to every model
("buffers are not learned, so they are the same"): models whose BatchNorm running statistics differ all
use the first model's."""
EXPECT = {"ensemble": "fail"}
CELLS = {
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, _ = stack_module_state(models)
    buffers = {k: b for k, b in models[0].named_buffers()}
    base = copy.deepcopy(models[0]).to("meta")

    def one(p, b, x):
        return functional_call(base, (p, b), (x,))

    return vmap(one, in_dims=(0, None, 0 if per_model else None))(params, buffers, x)
''',
}
