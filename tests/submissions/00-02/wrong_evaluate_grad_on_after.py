"""Wrong (blind batch, issue #19, second round, evaluate):
with keep_for_autograd=True it switches grad off by hand and switches it back on
(in a finally) rather than restoring what it was.

Breaks "Grad mode and inference mode are as they were before the call": a call made under
torch.no_grad() (or after set_grad_enabled(False)) leaves grad mode enabled.
The hidden check test_called_with_grad_off calls evaluate inside torch.no_grad() and compares the
global state before and after.
"""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'fail', 'checkpoint': 'pass'}

CELLS = {
    'evaluate_impl': '''
def evaluate(model, x, keep_for_autograd=False):
    """model(x) in eval mode, with no graph; see the exercise for which mode."""
    before = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        if keep_for_autograd:
            torch.set_grad_enabled(False)
            try:
                return model(x)
            finally:
                torch.set_grad_enabled(True)
        with torch.inference_mode():
            return model(x)
    finally:
        for m, flag in before:
            m.training = flag
''',
}
