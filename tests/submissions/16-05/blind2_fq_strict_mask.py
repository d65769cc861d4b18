"""Wrong (second blind round): The mask uses strict inequalities: elements exactly on quant_min or quant_max lose their gradient."""
EXPECT = {'fake_quant': 'fail'}
CELLS = {
    'fake_quant_impl': '''
class _FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)
        lv = torch.round(x * inv) + zero_point
        mask = (lv > quant_min) & (lv < quant_max)
        ctx.save_for_backward(mask)
        return (torch.clamp(lv, quant_min, quant_max) - zero_point) * scale

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask, None, None, None, None


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)
''',
}
