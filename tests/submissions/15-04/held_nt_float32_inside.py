"""Held-out gap round (wrong): nt_xent_loss computes in float32 "for speed" and casts the result back, so a
float64 loss carries float32 rounding (about 1e-7 relative), not the float64 NT-Xent."""
CELLS = {"nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    dtype = z1.dtype
    z = F.normalize(torch.cat([z1, z2]).float(), dim=1)
    n = z1.shape[0]
    s = z @ z.T / temperature
    s.fill_diagonal_(float("-inf"))
    idx = torch.arange(2 * n, device=z.device)
    pos = (idx + n) % (2 * n)
    loss = (torch.logsumexp(s, dim=1) - s[idx, pos]).mean()
    return loss.to(dtype)
'''}
EXPECT = {"nt_xent": "fail"}
