"""Accumulates in int64 ('to be safe'): the text asks for both operands and the result in int32, as the int8 kernels
do."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = qx.to(torch.int64) - x_zero_point
    acc = a @ qw.to(torch.int64).T
    y = acc.float() * (torch.tensor(x_scale, dtype=torch.float32, device=qx.device) * w_scale.to(qx.device))
    if bias is not None:
        y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
