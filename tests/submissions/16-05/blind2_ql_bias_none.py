"""Wrong (second blind round): Adds the bias unconditionally: bias=None raises."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = qx.to(torch.int32) - x_zero_point
    acc = a @ qw.to(torch.int32).T
    y = acc.to(torch.float32) * (x_scale * w_scale.to(qx.device))
    y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
