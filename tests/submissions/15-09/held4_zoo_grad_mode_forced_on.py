"""Breaks: "`fixed_predict_proba(model, x)` returns the softmax probabilities ... computed in evaluation
mode and without building a graph, and leaves every module of the model in the mode ... it was in",
read together with the notebook's theme of leaving no state behind.

Autograd is switched off with torch.set_grad_enabled(False) and switched back on with
set_grad_enabled(True) afterwards. Called inside torch.no_grad() (an evaluation loop), it returns with
grad mode on, so every later operation in that loop records a graph.
"""
EXPECT = {"zoo": "fail"}

CELLS = {
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    return ((torch.tanh(x @ w) + 1) ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    return ((torch.relu(x @ w1) @ w2) ** 2).mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    pos = (torch.arange(seq, device=x.device, dtype=torch.float64) / seq).to(x.dtype)
    return x + pos.unsqueeze(1)


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
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    torch.set_grad_enabled(False)
    try:
        return F.softmax(model(x), dim=1)
    finally:
        torch.set_grad_enabled(True)
        for m, mode in modes:
            m.training = mode
''',
}
