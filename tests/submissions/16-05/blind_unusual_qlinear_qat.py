"""Correct, written unusually: quantized_linear accumulates the int32 product in chunks of 64 inputs (a loop of
int32 matmuls added into an int32 accumulator), applies the scales as one float32 (M,) vector and the bias with
torch.add(alpha=1), and requantizes with exercise 1's quantize; QATLinear keeps no weight observer but makes the
fresh one inside forward under a helper, decides observing from self.training, and computes the output as
torch.addmm / matmul of the two fake-quantized operands (equal to F.linear up to float rounding)."""
EXPECT = {"qlinear": "pass", "qat": "pass"}
CELLS = {
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    """uint8 activations times an int8 per-channel weight, accumulated in int32, requantized to uint8."""
    K, M = qx.shape[-1], qw.shape[0]
    a = qx.to(torch.int32).sub(int(x_zero_point))
    w = qw.to(torch.int32)
    acc = torch.zeros(*qx.shape[:-1], M, dtype=torch.int32, device=qx.device)
    for start in range(0, K, 64):
        acc += torch.matmul(a[..., start:start + 64], w[:, start:start + 64].transpose(0, 1))
    per_out = torch.as_tensor(w_scale, dtype=torch.float32).to(qx.device) * torch.tensor(
        x_scale, dtype=torch.float32, device=qx.device)
    y = acc.to(torch.float32) * per_out
    if bias is not None:
        y = torch.add(y, bias.to(device=qx.device, dtype=torch.float32), alpha=1)
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
    'qat_impl': '''
def _weight_scale(weight):
    obs = RangeObserver(torch.int8, symmetric=True)
    obs(weight)
    return float(obs.calculate_qparams()[0])


class QATLinear(nn.Linear):
    """nn.Linear that sees its input (uint8, observed) and its weight (int8, symmetric) through fake quantization."""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.add_module("act_observer", RangeObserver(torch.uint8, averaging_constant=0.01))

    def forward(self, x):
        if self.training:
            self.act_observer(x)
        s_x, z_x = (v.reshape(()) for v in self.act_observer.calculate_qparams())
        xq = fake_quantize(x, s_x.item(), int(z_x.item()), 0, 255)
        wq = fake_quantize(self.weight, _weight_scale(self.weight), 0, -128, 127)
        if self.bias is None:
            return torch.matmul(xq, wq.t())
        if xq.dim() == 2:
            return torch.addmm(self.bias, xq, wq.t())
        return torch.matmul(xq, wq.t()) + self.bias
''',
}
