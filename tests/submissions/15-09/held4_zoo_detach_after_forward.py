"""Breaks: "`fixed_predict_proba(model, x)` returns the softmax probabilities of `model(x)` ... computed in
evaluation mode and **without building a graph**".

The forward pass runs with autograd on and the probabilities are detached afterwards. The result has no
grad_fn, but the graph (and every activation it saved) was built during the call, which is the cost
no_grad exists to avoid.
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
    try:
        return F.softmax(model(x), dim=1).detach()
    finally:
        for m, mode in modes:
            m.training = mode
''',
}
