"""One weight observer is made in __init__ and reused at every forward: as a min-max observer it keeps the extremes of
every weight seen since the start, not of the current weight (the text: a fresh observer that has watched the
current weight once)."""
EXPECT = {'qat': 'fail'}
CELLS = {
    'qat_impl': '''
class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)
        self.w_observer = RangeObserver(torch.int8, symmetric=True)

    def forward(self, x):
        if self.training:
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        wobs = self.w_observer
        wobs(self.weight)
        s_w, _ = wobs.calculate_qparams()
        return F.linear(fake_quantize(x, float(s_x), int(z_x), 0, 255),
                        fake_quantize(self.weight, float(s_w), 0, -128, 127), self.bias)
''',
}
