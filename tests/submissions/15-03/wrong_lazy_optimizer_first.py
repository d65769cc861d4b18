"""Wrong, from the fourth blind batch of issue #19 (2026-11-27): prepare_lazy moves and casts the model, then
builds the SGD optimizer BEFORE the dry run, while the parameters are still UninitializedParameter placeholders.
With plain SGD this happens to work in current PyTorch (materialisation mutates the same Parameter objects), but the
text says the optimizer is created after the dry run and warns not to rely on that. The lazy probe now watches
torch.optim.SGD's construction and test_prepare_materializes_in_example_dtype rejects it."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'fail', 'trace': 'pass'}
BASE = "reference"
CELLS = {
    'lazy_impl': '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(device=example.device, dtype=example.dtype)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    modes = {m: m.training for m in model.modules()}
    model.eval()
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, t in modes.items():
            m.training = t
    return opt
''',
}
