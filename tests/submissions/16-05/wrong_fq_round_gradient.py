"""No custom backward: autograd differentiates round, whose gradient is 0, so nothing learns."""
EXPECT = {"fake_quant": "fail"}
CELLS = {"fake_quant_impl": '''
def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)
    level = torch.clamp(torch.round(x * inv) + zero_point, quant_min, quant_max)
    return (level - zero_point) * torch.tensor(scale, dtype=torch.float32, device=x.device)
'''}
