"""Known wrong order: dry run first, cast to the example's dtype afterwards. The float32 placeholders
materialise as float32 and the float64 dry run fails; also leaves the model in eval mode."""
EXPECT = {"lazy": "fail"}

CELLS = {"lazy_impl": '''
def make_lazy_net(num_classes):
    return nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))


def prepare_lazy(model, example, lr):
    model.eval()
    with torch.no_grad():
        model(example.float())
    model.to(example.device, example.dtype)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
'''}
