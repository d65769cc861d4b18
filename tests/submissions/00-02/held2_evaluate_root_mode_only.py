"""Wrong (held-out round 2): remembers model.training and restores it with model.train(was), which sets every
submodule to the root's mode ("Every submodule is left in the ... mode it was in ..., even when they differ")."""
EXPECT = {'evaluate': 'fail'}
CELLS = {"evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    was = model.training
    model.eval()
    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            return model(x)
    finally:
        model.train(was)
'''}
