"""prepare_lazy casts the model with .double() (the dtype of the visible example) instead of example.dtype, so a float32 example meets float64 weights and the dry run raises. Breaks 'moves and casts the model to example's device and dtype'. Found by the third blind round (issue #19)."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'fail', 'trace': 'pass'}

CELLS = {
    'lazy_impl': '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(example.device).double()
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, was in modes:
            m.train(was)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
