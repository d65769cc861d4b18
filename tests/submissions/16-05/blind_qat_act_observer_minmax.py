"""act_observer is a plain min-max observer (averaging_constant left out): the activation range only ever grows during
training."""
EXPECT = {'qat': 'fail'}
CELLS = {
    'qat_impl': '''
class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.act_observer = RangeObserver(torch.uint8)

    def forward(self, x):
        if self.training:
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        wobs = RangeObserver(torch.int8, symmetric=True)
        wobs(self.weight)
        s_w, _ = wobs.calculate_qparams()
        return F.linear(fake_quantize(x, float(s_x), int(z_x), 0, 255),
                        fake_quantize(self.weight, float(s_w), 0, -128, 127), self.bias)
''',
}
