"""Known wrong: dry run under torch.inference_mode() instead of torch.no_grad(). The parameters are
materialised as inference tensors, so the first real training step fails ("Inference tensors cannot be
saved for backward"). make_lazy_net hard-codes the FashionMNIST input size in a plain Linear."""
EXPECT = {"lazy": "fail"}

CELLS = {"lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(16 * 14 * 14, 64), nn.ReLU(), nn.Linear(64, num_classes))


def prepare_lazy(model, example, lr):
    model.to(example.device, example.dtype)
    was = model.training
    model.eval()
    with torch.inference_mode():
        model(example)
    model.train(was)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
'''}
