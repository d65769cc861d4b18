"""Held-out round 2 (15-09 zoo): fixed_add_positions adds the positions into x in place and returns x.

Device and dtype are right (the positions are made on x's device in x's dtype), and the returned values
are x + k / seq, but the caller's tensor is overwritten: the broken version, whose meaning the fix must
keep, returns a new tensor and leaves x as it was (and in place on a leaf that requires grad it raises).
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
    x += pos
    return x


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
            return F.softmax(model(x), dim=1)
    finally:
        for m, mode in zip(model.modules(), modes):
            m.training = mode
''',
}
