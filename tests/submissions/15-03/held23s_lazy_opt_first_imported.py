"""Held-out round 23, second pass (issue 39; not counted): held23_lazy_opt_first again (the optimizer built over
the placeholders, before the cast and the dry run), with the class imported by name at the top of the cell
(`from torch.optim import SGD`), as much code does. Contradicts: "returns `torch.optim.SGD(model.parameters(),
lr=lr, momentum=0.9)`, created after the dry run"."""

CELLS = {
    "lazy_impl": '''
from torch.optim import SGD


def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    opt = SGD(model.parameters(), lr=lr, momentum=0.9)
    model.to(device=example.device, dtype=example.dtype)
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, mode in modes:
            m.training = mode
    return opt
''',
}
EXPECT = {"lazy": "fail"}
