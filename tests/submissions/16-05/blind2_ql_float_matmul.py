"""Wrong (second blind round): Accumulates with a float32 matrix product of the centred levels (the text asks for int32 operands and result, no float matmul)."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = qx.to(torch.int32) - x_zero_point
    acc = a.to(torch.float32) @ qw.to(torch.float32).T
    y = acc.to(torch.float32) * (x_scale * w_scale.to(qx.device))
    if bias is not None:
        y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
