"""Wrong (held-out round 2): always runs the model under inference_mode and, for keep_for_autograd=True,
returns a clone made outside it: an ordinary tensor, but the model did not run under torch.no_grad()
("With keep_for_autograd=True, run under torch.no_grad()")."""
EXPECT = {'evaluate': 'fail'}
CELLS = {"evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            out = model(x)
    finally:
        for m, was in modes:
            m.training = was
    return out.clone() if keep_for_autograd else out
'''}
