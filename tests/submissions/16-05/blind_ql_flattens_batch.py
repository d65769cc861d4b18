"""qx is flattened to (N, K) for the matrix product and the result is returned as (N, M): for a 3-D qx (batch, tokens,
K) the shape (..., M) is lost."""
EXPECT = {'qlinear': 'fail'}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    a = qx.reshape(-1, qx.shape[-1]).to(torch.int32) - x_zero_point
    acc = a @ qw.to(torch.int32).T
    y = acc.float() * (torch.tensor(x_scale, dtype=torch.float32, device=qx.device) * w_scale.to(qx.device))
    if bias is not None:
        y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
