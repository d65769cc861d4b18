"""Known wrong: the dry run runs in whatever mode the model is in (usually train), with autograd on:
LazyBatchNorm updates its running statistics from the dry-run batch (and num_batches_tracked becomes 1)."""
EXPECT = {"lazy": "fail"}

CELLS = {"lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.to(example.device, example.dtype)
    model(example)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
'''}
