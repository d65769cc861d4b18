"""Held-out round 23 (issue 39): prepare_lazy creates the SGD optimizer first, over the still-uninitialized
placeholders, and only then casts, moves and dry-runs the model. In current PyTorch the optimizer still works,
because materialisation fills the same Parameter objects, which is exactly what the text says not to rely on.
Contradicts: "returns `torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)`, created after the dry run"
(and step 3 of the ritual: "**Then** create the optimizer")."""

CELLS = {
    "lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
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
