"""Held-out round 2 (15-09 zoo): fixed_predict_proba takes the softmax over the last dimension.

The same as dim=1 for (N, classes) outputs, but the broken version (whose meaning the fix keeps) normalises
over dim=1, the class dimension: for a model with (N, classes, L) outputs (a per-position classifier, e.g.
a 1-D convolution) the probabilities here sum to 1 over positions instead of over classes.
"""
EXPECT = {'zoo': 'fail'}

CELLS = {
    'zoo_impl': '''
def fixed_tanh_loss(x, w):
    h = torch.tanh(x @ w)
    h = h + 1
    return (h ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    h = torch.relu(x @ w1)
    return ((h @ w2) ** 2).mean()


def fixed_add_positions(x):
    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]
    return x + pos


def fixed_train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def fixed_predict_proba(model, x):
    modes = [m.training for m in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            return F.softmax(model(x), dim=-1)
    finally:
        for m, mode in zip(model.modules(), modes):
            m.training = mode
''',
}
