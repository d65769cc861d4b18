"""The quick fixes that silence the error without fixing the bug: h.data += 1 (no error, wrong
gradients), the positions moved to x's device but left in float32, and the detach kept with
requires_grad_() switched back on."""
EXPECT = {"zoo": "fail"}
CELLS = {
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    h = torch.tanh(x @ w)
    h.data += 1
    return (h ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    h = torch.relu(x @ w1)
    h = h.detach().clone().requires_grad_()
    return ((h @ w2) ** 2).mean()


def fixed_add_positions(x):
    pos = (torch.arange(x.shape[1]).unsqueeze(1) / x.shape[1]).to(x.device)
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
    was = model.training
    model.eval()
    with torch.no_grad():
        p = F.softmax(model(x), dim=1)
    model.train(was)
    return p
''',
}
