"""Blind batch, issue #19, third round (evaluate): breaks 'equals what model.eval() followed by model(x) gives': only
nn.Dropout and nn.BatchNorm1d/2d submodules are switched to eval, so Dropout2d, AlphaDropout, BatchNorm3d,
InstanceNorm or a custom module that reads self.training still run in training mode."""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'fail', 'checkpoint': 'pass'}
BASE = "reference"
CELLS = {
    'evaluate_impl': r'''
_TRAIN_DEPENDENT = (nn.Dropout, nn.BatchNorm1d, nn.BatchNorm2d)


def evaluate(model, x, keep_for_autograd=False):
    """model(x) in eval mode, with no graph; see the exercise for which mode."""
    switched = [m for m in model.modules() if isinstance(m, _TRAIN_DEPENDENT) and m.training]
    for m in switched:
        m.eval()
    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            return model(x)
    finally:
        for m in switched:
            m.train()
''',
}
