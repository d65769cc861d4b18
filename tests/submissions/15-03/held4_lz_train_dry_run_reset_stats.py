"""Breaks: "dry-runs it on `example` **without leaving a trace** (... no change to BatchNorm running
statistics ...)" for a model whose BatchNorm statistics are not at their initial values.

The dry run stays in training mode and afterwards "undoes" its effect with reset_running_stats() on
every BatchNorm layer. On a fresh model that looks the same as a dry run in eval mode; on a model that
already carries statistics (a pretrained body with a new lazy head) it wipes them to 0/1/0.
"""
EXPECT = {"lazy": "fail"}

CELLS = {
    "lazy_impl": '''
def make_lazy_net(num_classes):
    """A small CNN made of lazy layers: works for any input channel count and image size."""
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    """Cast/move, dry-run without side effects, then build the optimizer."""
    model.to(device=example.device, dtype=example.dtype)
    with torch.no_grad():
        model(example)
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
