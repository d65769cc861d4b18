"""Requantizes inline with round and zero point but no clamp, then casts to uint8: outputs beyond the range wrap around
instead of saturating."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = qx.to(torch.int32) - x_zero_point
    acc = a @ qw.to(torch.int32).T
    y = acc.float() * (torch.tensor(x_scale, dtype=torch.float32, device=qx.device) * w_scale.to(qx.device))
    if bias is not None:
        y = y + bias
    inv = 1.0 / torch.tensor(out_scale, dtype=torch.float32, device=qx.device)
    return (torch.round(y * inv) + out_zero_point).to(torch.int32).to(torch.uint8)
''',
}
