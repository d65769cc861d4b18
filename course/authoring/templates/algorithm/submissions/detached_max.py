"""Detaches the shift m = max(a, b): the value is right, the gradient misses the d(m) term."""
EXPECT = {"logaddexp": "fail"}
CELLS = {"logaddexp_impl": '''
def stable_logaddexp(a, b):
    m = torch.maximum(a, b).detach()
    return m + torch.log(torch.exp(a - m) + torch.exp(b - m)).detach()
'''}
