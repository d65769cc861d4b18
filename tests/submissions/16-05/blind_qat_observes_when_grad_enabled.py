"""Decides whether to update act_observer by grad mode instead of training mode: in eval mode with grad enabled the
observer still moves, and in training mode under no_grad it stops."""
EXPECT = {'qat': 'fail'}
CELLS = {
    'qat_impl': '''
class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)

    def forward(self, x):
        if torch.is_grad_enabled():
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        wobs = RangeObserver(torch.int8, symmetric=True)
        wobs(self.weight)
        s_w, _ = wobs.calculate_qparams()
        return F.linear(fake_quantize(x, float(s_x), int(z_x), 0, 255),
                        fake_quantize(self.weight, float(s_w), 0, -128, 127), self.bias)
''',
}
