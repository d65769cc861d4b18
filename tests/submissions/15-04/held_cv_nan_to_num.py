"""Held-out gap round (wrong): clip_grad_value replaces nan entries by 0 before clamping ("every entry into
[-c, c]"), where clip_grad_value_ (a clamp) keeps nan as nan."""
CELLS = {"clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    with torch.no_grad():
        for p in parameters:
            if p.grad is not None:
                torch.nan_to_num_(p.grad, nan=0.0)
                p.grad.clamp_(-clip_value, clip_value)
'''}
EXPECT = {"clip_grad_value": "fail"}
