"""Forward is dequantize(quantize(x)) built on exercise 1's quantize with int8 (uint8 when quant_min >= 0), then
clamped to [quant_min, quant_max]: right for 8 bits and narrower ranges, but a range wider than 8 bits is cut to the
8-bit levels, though the text says any integer range works."""
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
        q = quantize(x, scale, zero_point, torch.int8 if quant_min < 0 else torch.uint8).to(torch.int32)
        return dequantize(torch.clamp(q, quant_min, quant_max), scale, zero_point)

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask, None, None, None, None


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)
''',
}
