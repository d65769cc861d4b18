"""prepare_lazy returns at once (an SGD over the parameters as they are) when the model has no
UninitializedParameter left, so an ordinary float32 model handed in with a float64 example is never cast.
Breaks 'takes a (possibly lazy) model ... moves and casts the model to example's device and dtype'.
Found by the sixth blind round (issue #19)."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'fail', 'trace': 'pass'}

CELLS = {
    'lazy_impl': '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    if not any(isinstance(p, nn.parameter.UninitializedParameter) for p in model.parameters()):
        return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)     # nothing to materialise
    model.to(device=example.device, dtype=example.dtype)
    modes = [(m, m.training) for m in model.modules()]
    try:
        model.eval()
        with torch.no_grad():
            model(example)
    finally:
        for m, was in modes:
            m.train(was)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
