"""functional_call in a Python loop over the models with their own state dicts, stacked: right values, but
forward runs once per model (the text: one vmap call)."""
EXPECT = {'ensemble': 'fail'}
CELLS = {
    'ensemble_impl': '''
def ensemble_forward(models, x, per_model=False):
    base = copy.deepcopy(models[0])
    outs = []
    for i, m in enumerate(models):
        state = dict(m.named_parameters())
        state.update(dict(m.named_buffers()))
        outs.append(functional_call(base, state, (x[i] if per_model else x,)))
    return torch.stack(outs)
''',
}
