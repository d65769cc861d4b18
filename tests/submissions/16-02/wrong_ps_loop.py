"""A loop of single-example backward passes: the right numbers, the model called once per example, and .grad
left set."""
EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": """
def per_sample_grads(model, loss_fn, x, y):
    names = [k for k, p in model.named_parameters() if p.requires_grad]
    rows = {k: [] for k in names}
    for i in range(len(x)):
        model.zero_grad()
        loss_fn(model(x[i:i + 1]), y[i:i + 1]).backward()
        for k, p in model.named_parameters():
            if p.requires_grad:
                rows[k].append(p.grad.clone())
    return {k: torch.stack(v) for k, v in rows.items()}
"""}
