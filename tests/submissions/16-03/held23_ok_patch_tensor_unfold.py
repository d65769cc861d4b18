"""Correct, written differently (round 23): patch_embed cuts the patches with Tensor.unfold (a strided view,
no im2col and no convolution) on the cropped image and projects them with einsum; sinusoidal_positions
builds the angles with torch.outer and fills even and odd columns by slicing."""
EXPECT = {"embed": "pass"}
CELLS = {"embed_impl": '''
def sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32):
    """The (length, d_model) sinusoidal position table: sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError("an odd d_model has no (sin, cos) pairing")
    inv = torch.pow(torch.tensor(float(base), dtype=torch.float64),
                    -torch.arange(d_model // 2, dtype=torch.float64) * 2 / d_model)
    ang = torch.outer(torch.arange(length, dtype=torch.float64), inv)
    table = torch.empty(length, d_model, dtype=torch.float64)
    table[:, 0::2] = ang.sin()
    table[:, 1::2] = ang.cos()
    return table.to(dtype)


def patch_embed(images, weight, bias=None):
    """Non-overlapping patches of images (N, C, H, W) projected by weight (E, C, ph, pw): (N, P, E)."""
    ph, pw = weight.shape[-2:]
    tiles = images.unfold(2, ph, ph).unfold(3, pw, pw)  # (N, C, gh, gw, ph, pw), a view
    out = torch.einsum("ncyxij,ecij->nyxe", tiles, weight).flatten(1, 2)
    if bias is not None:
        out = out + bias
    return out
'''}
