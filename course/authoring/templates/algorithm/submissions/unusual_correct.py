"""Correct, written differently: the shift form with logsumexp over a stacked pair."""
EXPECT = {"logaddexp": "pass"}
CELLS = {"logaddexp_impl": '''
def stable_logaddexp(a, b):
    a, b = torch.broadcast_tensors(a, b)
    return torch.logsumexp(torch.stack([a, b]), dim=0)
'''}
