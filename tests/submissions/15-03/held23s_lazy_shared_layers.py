"""Held-out round 23, second pass (issue 39; not counted): make_lazy_net builds its body layers once, at module
level, and every call wraps the same LazyConv2d and LazyLinear(64) objects with a new last layer. The first
model's dry run materialises them, so a second model made for images with another channel count or size shares
weights it cannot use (and training one model trains the other). Contradicts: "`make_lazy_net(num_classes)`
returns a model ... for images `(N, C, H, W)` of **any** channel count and size" (each call a model of its own,
lazy until its own first call)."""

CELLS = {
    "lazy_impl": '''
_BODY = [nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.LazyLinear(64), nn.ReLU()]


def make_lazy_net(num_classes):
    return nn.Sequential(*_BODY, nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(device=example.device, dtype=example.dtype)
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
EXPECT = {"lazy": "fail"}
