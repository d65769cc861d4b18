"""A missing bias is replaced by `torch.zeros(M)` made without device=: on a GPU the sum mixes a CUDA and a CPU tensor
(the text: every tensor you create is on qx's device)."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = qx.to(torch.int32) - x_zero_point
    acc = a @ qw.to(torch.int32).T
    y = acc.float() * (torch.tensor(x_scale, dtype=torch.float32, device=qx.device) * w_scale.to(qx.device))
    if bias is None:
        bias = torch.zeros(qw.shape[0])
    y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
