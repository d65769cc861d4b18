"""Correct, written unusually (held-out round 30): the modes are kept in a list and put back in reverse
order through the .training attribute; the no-graph mode is built with an ExitStack:
inference_mode(not keep_for_autograd) first, then no_grad on top (inference_mode(False) turns grad mode on,
so no_grad must come after it: keep_for_autograd=True then runs under no_grad, outside inference mode)."""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}
CELLS = {"evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    """model(x) in eval mode, with no graph; see the exercise for which mode."""
    saved = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with contextlib.ExitStack() as stack:
            stack.enter_context(torch.inference_mode(not keep_for_autograd))
            stack.enter_context(torch.no_grad())
            return model(x)
    finally:
        for m, flag in reversed(saved):
            m.training = flag
'''}
