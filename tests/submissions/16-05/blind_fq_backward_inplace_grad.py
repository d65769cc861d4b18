"""backward multiplies the incoming gradient in place (`grad.mul_(mask)`) and returns it: where autograd hands the same
gradient tensor to another branch (y = fq(x) + x), that branch sees the masked values too."""
EXPECT = {'fake_quant': 'fail'}
CELLS = {
    'fake_quant_impl': '''
class _FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)
        level = torch.round(x * inv) + zero_point
        mask = (level >= quant_min) & (level <= quant_max)
        ctx.save_for_backward(mask)
        return (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(scale, dtype=torch.float32, device=x.device)

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad.mul_(mask), None, None, None, None


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)
''',
}
