"""Runs models[0] itself (no meta copy) with only the stacked parameters: every model uses models[0]'s buffers
(BatchNorm running statistics), wrong when they differ."""
EXPECT = {'ensemble': 'fail'}
CELLS = {
    'ensemble_impl': '''
def ensemble_forward(models, x, per_model=False):
    params, _ = stack_module_state(models)
    base = models[0]

    def one(p, xi):
        return functional_call(base, p, (xi,))

    return vmap(one, in_dims=(0, 0 if per_model else None))(params, x)
''',
}
