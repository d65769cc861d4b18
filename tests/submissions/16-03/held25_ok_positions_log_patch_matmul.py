"""Correct, written differently (round 25): sinusoidal_positions takes the frequencies as
exp(-log(base) * 2i / d) (the PyTorch tutorial's form) in float64 and interleaves sin and cos by filling a
float64 table's even and odd columns; patch_embed crops, reshapes and contracts the patches with the weight
through torch.tensordot, adding the bias only when given."""
EXPECT = {"embed": "pass"}
CELLS = {"embed_impl": '''
def sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32):
    """The (length, d_model) sinusoidal position table: sin in even columns, cos in odd columns."""
    if d_model % 2 == 1:
        raise ValueError("sinusoidal_positions needs an even d_model")
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(base) / d_model))
    pos = torch.arange(length, dtype=torch.float64).unsqueeze(1)
    table = torch.zeros(length, d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(pos * div)
    table[:, 1::2] = torch.cos(pos * div)
    return table.to(dtype)


def patch_embed(images, weight, bias=None):
    """Non-overlapping patches of images (N, C, H, W) projected by weight (E, C, ph, pw): (N, P, E)."""
    n, c, H, W = images.shape
    ph, pw = weight.shape[2], weight.shape[3]
    gh, gw = H // ph, W // pw
    x = images[..., :gh * ph, :gw * pw].reshape(n, c, gh, ph, gw, pw)
    out = torch.tensordot(x, weight, dims=([1, 3, 5], [1, 2, 3]))  # (N, gh, gw, E)
    out = out.reshape(n, gh * gw, weight.shape[0])
    if bias is not None:
        out = out + bias
    return out
'''}
