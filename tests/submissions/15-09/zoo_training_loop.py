"""Training-loop mistakes: zero_grad between backward and step (no update at all), loss tensors kept
(detached, but still tensors), and eval() without switching the model back or turning off the graph."""
EXPECT = {"zoo": "fail"}
CELLS = {
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    return ((torch.tanh(x @ w) + 1) ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    return ((torch.relu(x @ w1) @ w2) ** 2).mean()


def fixed_add_positions(x):
    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]
    return x + pos


def fixed_train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in batches:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.zero_grad()
        opt.step()
        losses.append(loss.detach())
    return losses


def fixed_predict_proba(model, x):
    model.eval()
    return F.softmax(model(x), dim=1)
''',
}
