"""Round 14s: a correct QATLinear that takes the values from fake_quantize on detached tensors and rebuilds the
straight-through gradient itself: x_fq = fq(x.detach()) + (x - x.detach()) * mask, the mask being
clamp-free levels round(x * inv) + z inside [qmin, qmax] with inv = 1 / float32(scale), as fake_quantize's text
says. It keeps the gradient at levels 0 and 255 exactly and at the weight's half level 127.5 (which rounds to 128)
drops it, as PyTorch does."""
EXPECT = {"qat": "pass", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": '''
def _straight_through(t, scale, zero_point, qmin, qmax):
    inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=t.device)
    level = torch.round(t.detach() * inv) + zero_point
    keep = ((level >= qmin) & (level <= qmax)).to(t.dtype)
    return fake_quantize(t.detach(), scale, zero_point, qmin, qmax) + (t - t.detach()) * keep


class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)

    def forward(self, x):
        if self.training:
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        w_obs = RangeObserver(torch.int8, symmetric=True)
        w_obs(self.weight)
        s_w, _ = w_obs.calculate_qparams()
        return F.linear(_straight_through(x, float(s_x), int(z_x), 0, 255),
                        _straight_through(self.weight, float(s_w), 0, -128, 127), self.bias)
'''}
