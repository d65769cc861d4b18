"""Held-out round 9, correct: make_lazy_net writes the first convolution with padding="same" (identical to
padding=1 for a 3x3 kernel at stride 1) and builds the Sequential from an OrderedDict with named layers;
prepare_lazy casts with model.to(example) and restores each module's mode through train(mode) on it."""

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"lazy_impl": '''
from collections import OrderedDict


def make_lazy_net(num_classes):
    return nn.Sequential(OrderedDict([
        ("conv", nn.LazyConv2d(16, 3, padding="same")), ("act1", nn.ReLU()), ("pool", nn.MaxPool2d(2)),
        ("flat", nn.Flatten()), ("fc", nn.LazyLinear(64)), ("act2", nn.ReLU()),
        ("out", nn.LazyLinear(num_classes))]))


def prepare_lazy(model, example, lr):
    model.to(example)
    modes = [(m, m.training) for m in model.modules()]
    for m, _ in modes:
        m.training = False
    with torch.no_grad():
        model(example)
    for m, mode in modes:
        m.training = mode
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
'''}
