"""Held-out round 23, second pass (issue 39; not counted): a correct prepare_lazy that moves the model only when
one of its tensors is on another device than the example (`model.to(example.device)` inside an `if`), and casts
with `model.to(dtype=example.dtype)`. On a CPU-only run with a CPU model it never asks for a device: it does not
need to. Written to see whether the device check (which records the moves asked for) tells this apart from a
model never moved."""

CELLS = {
    "lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    if any(t.device != example.device for t in [*model.parameters(), *model.buffers()]):
        model.to(example.device)
    model.to(dtype=example.dtype)
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, mode in modes:
            m.training = mode
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
