"""Computes in float64 and forgets to cast back: float32 inputs give a float64 result."""
EXPECT = {"logaddexp": "fail"}
CELLS = {"logaddexp_impl": '''
def stable_logaddexp(a, b):
    a, b = a.double(), b.double()
    m = torch.maximum(a, b)
    return m + torch.log1p(torch.exp(-(a - b).abs()))
'''}
