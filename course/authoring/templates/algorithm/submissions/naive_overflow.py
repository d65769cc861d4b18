"""The textbook formula: exp overflows for inputs near 1000, so the result is inf."""
EXPECT = {"logaddexp": "fail"}
CELLS = {"logaddexp_impl": '''
def stable_logaddexp(a, b):
    return torch.log(torch.exp(a) + torch.exp(b))
'''}
