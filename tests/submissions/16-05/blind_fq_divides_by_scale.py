"""Forward rounds x / scale instead of x * inv (exercise 1's detail forgotten in exercise 3): differs from PyTorch for
some x right next to a half."""
EXPECT = {'fake_quant': 'fail'}
CELLS = {
    'fake_quant_impl': '''
class _FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)
        level = torch.round(x / scale) + zero_point
        mask = (level >= quant_min) & (level <= quant_max)
        ctx.save_for_backward(mask)
        return (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(scale, dtype=torch.float32, device=x.device)

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask, None, None, None, None


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)
''',
}
