"""Correct, unusual (blind batch, issue #19, second round, evaluate):
runs a deep copy of the model put in eval mode, so the caller's model
and its submodules' flags are never touched; the grad-mode contexts are entered with an ExitStack.
"""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}

CELLS = {
    'evaluate_impl': '''
import copy


def evaluate(model, x, keep_for_autograd=False):
    """model(x) in eval mode, with no graph; see the exercise for which mode."""
    twin = copy.deepcopy(model).eval()
    with contextlib.ExitStack() as stack:
        stack.enter_context(torch.no_grad() if keep_for_autograd else torch.inference_mode())
        return twin(x)
''',
}
