"""Uses torch.no_grad() whatever keep_for_autograd says: the output is never an inference tensor."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            return model(x)
    finally:
        for m, mode in modes:
            m.training = mode
'''}
