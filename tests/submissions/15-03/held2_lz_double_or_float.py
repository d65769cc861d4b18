"""Held-out round 2 (15-03 lazy): the cast chosen between two dtypes, model.double() or model.float().

Moves to example.device and dry-runs correctly, but for a float16 or bfloat16 example the model is cast to
float32: the text casts it to example's dtype (the dry run then fails on the dtype mismatch).
"""
EXPECT = {'lazy': 'fail'}

CELLS = {
    'lazy_impl': '''
def make_lazy_net(num_classes):
    """A small CNN made of lazy layers: works for any input channel count and image size."""
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    """Cast/move, dry-run without side effects, then build the optimizer."""
    model.to(example.device)
    model.double() if example.dtype == torch.float64 else model.float()
    modes = {m: m.training for m in model.modules()}
    model.eval()
    with torch.no_grad():
        model(example)
    for m, was in modes.items():
        m.training = was
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
