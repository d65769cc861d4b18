"""fixed_train calls zero_grad() after step() instead of before backward(): a model that arrives with .grad
already set (an earlier backward) takes its first step on that stale gradient plus the batch's, not on 'the
cross-entropy of that batch alone'. Blind batch, issue #19, third round."""
EXPECT = {"zoo": "fail"}

CELLS = {
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    h = torch.tanh(x @ w)
    h = h + 1
    return (h ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    h = torch.relu(x @ w1)
    logged = h.detach().clone()
    return ((h @ w2) ** 2).mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    pos = torch.arange(seq, device=x.device, dtype=x.dtype).unsqueeze(1) / seq
    return x + pos


def fixed_train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in batches:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    return losses


def fixed_predict_proba(model, x):
    modes = {m: m.training for m in model.modules()}
    model.eval()
    try:
        with torch.no_grad():
            return F.softmax(model(x), dim=1)
    finally:
        for m, t in modes.items():
            m.training = t
''',
}
