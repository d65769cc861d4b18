"""Held-out round 2 (15-03 lazy): the dry run stays in training mode and puts running_mean/running_var back.

The modes are untouched and the means and variances are restored from copies, but every BatchNorm's
num_batches_tracked is left at 1 (a trace of the dry run), and in training mode Dropout and BatchNorm's
batch statistics run where the text asks for eval mode.
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
    model.to(device=example.device, dtype=example.dtype)
    modes = {m: m.training for m in model.modules()}
    with torch.no_grad():
        saved = {}
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm) and m.track_running_stats and m.running_mean is not None:
                saved[m] = (m.running_mean.clone(), m.running_var.clone())
        model(example)
        for m, (mean, var) in saved.items():
            m.running_mean.copy_(mean)
            m.running_var.copy_(var)
    for m, was in modes.items():
        m.training = was
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
''',
}
