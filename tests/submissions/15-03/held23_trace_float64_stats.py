"""Held-out round 23 (issue 39): trace_activations upcasts each output to float64 before taking mean and std.
Written as wrong (the text said "output.mean(), output.std()"); it kept full marks, and on review it is no
mistake: the suite already accepts statistics taken in a wider dtype (held22's [half] compares within float16's
resolution, and `unusual_correct` takes them in float64), since a float64 mean of float16 values is the same
quantity, only rounded less. The text now says so ("taking them in a wider dtype such as float64 is fine too"),
and this example stays as a correct answer that must keep full marks."""

CELLS = {
    "trace_impl": '''
def trace_activations(model, x):
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach().to(torch.float64)
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
        return hook

    try:
        for name, m in model.named_modules():
            if len(list(m.children())) == 0:
                handles.append(m.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
