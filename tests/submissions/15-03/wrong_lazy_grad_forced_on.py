"""Restores the grad bookkeeping to a fixed "on" instead of to what it was: grad mode is switched off with
torch.set_grad_enabled(False) and switched on unconditionally afterwards, and every parameter is set to
requires_grad=True after the dry run ("make sure everything can train"). Called inside the caller's
torch.no_grad() block, grad mode comes back enabled; a frozen (pretrained) layer comes back trainable.
Breaks: 'dry-runs it on example without leaving a trace'. From the fifth blind round of issue #19 (the
grad-mode half was written blind and passed every check; the requires_grad half is the same mistake, folded
in); caught by both expectations of test_dry_run_leaves_callers_grad_state.
"""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'fail', 'trace': 'pass'}
BASE = "reference"

CELLS = {
    'lazy_impl': '''
def make_lazy_net(num_classes):
    """A small CNN made of lazy layers: works for any input channel count and image size."""
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    """Cast/move, dry-run without side effects, then build the optimizer."""
    model.to(device=example.device, dtype=example.dtype)
    modes = {m: m.training for m in model.modules()}
    model.eval()
    try:
        torch.set_grad_enabled(False)
        model(example)
        torch.set_grad_enabled(True)
    finally:
        for m, was_training in modes.items():
            m.training = was_training
    for p in model.parameters():
        p.requires_grad_(True)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
