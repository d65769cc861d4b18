"""Known-wrong (blind batch, issue #19 third round): capture_activations' forward hook returns output.detach(), which replaces each hooked submodule's output, so the rest of the model runs cut from the autograd graph (breaks 'the model's output is unchanged by your hooks'). Caught by test_capture_hooks_leave_outputs_alone."""
EXPECT = {'scaled_mul': 'pass', 'softplus': 'pass', 'logcosh': 'pass', 'clamp': 'pass', 'forward_hooks': 'fail', 'grad_hooks': 'pass', 'inplace': 'pass'}
BASE = "reference"

CELLS = {
    'capture_impl': '''
def capture_activations(model, names, x):
    mods = dict(model.named_modules())
    for n in names:
        if n not in mods:
            raise KeyError(n)
    acts, handles = {}, []

    def make(n):
        def hook(mod, inp, out):
            acts[n] = out.detach()
            return acts[n]
        return hook

    try:
        for n in names:
            handles.append(mods[n].register_forward_hook(make(n)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return acts
''',
}
