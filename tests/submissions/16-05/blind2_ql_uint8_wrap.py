"""Wrong (second blind round): Subtracts the zero point on the uint8 tensor first, (qx - x_zero_point).to(torch.int32): levels below the zero point wrap."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = (qx - x_zero_point).to(torch.int32)
    acc = a @ qw.to(torch.int32).T
    y = acc.to(torch.float32) * (x_scale * w_scale.to(qx.device))
    if bias is not None:
        y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
