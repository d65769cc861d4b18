"""Correct (second blind round): A correct answer with a Function that saves the unclamped levels and masks by torch.where in backward, levels by a helper built of torch.mul/div, and an integer product by torch.matmul on .int() tensors; the rest as a plain solution."""
EXPECT = {'quant': 'pass', 'observer': 'pass', 'fake_quant': 'pass', 'qlinear': 'pass', 'qat': 'pass'}
CELLS = {
    'fake_quant_impl': '''
class _FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        q = quantize_levels(x, scale, zero_point)
        ctx.save_for_backward(q)
        ctx.bounds = (quant_min, quant_max)
        return (q.clamp(quant_min, quant_max) - zero_point) * scale

    @staticmethod
    def backward(ctx, grad):
        (q,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        return torch.where((q < lo) | (q > hi), torch.zeros_like(grad), grad), None, None, None, None


def quantize_levels(x, scale, zero_point):
    inv = torch.ones((), device=x.device).div(torch.as_tensor(scale, dtype=torch.float32, device=x.device))
    return torch.round(torch.mul(x, inv)).add(zero_point)


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)
''',
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    centred = torch.sub(qx.int(), x_zero_point)
    acc = torch.matmul(centred, qw.int().t())
    y = acc.float() * (x_scale * w_scale)
    if bias is not None:
        y = torch.add(y, bias)
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
}
