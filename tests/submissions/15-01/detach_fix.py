"""'Fixes' the version-counter error with .data, which silently changes the gradient."""
EXPECT = {"inplace": "fail", "grad_hooks": "pass"}
CELLS = {"inplace_impl": '''
def run_broken(x):
    y = torch.exp(x)
    y.add_(1)
    y.sum().backward()


def run_fixed(x):
    y = torch.exp(x)
    y.data.add_(1)
    y.sum().backward()
    return x.grad
'''}
