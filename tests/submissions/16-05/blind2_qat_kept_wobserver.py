"""Wrong (second blind round): One weight observer made in __init__ and kept: its min-max range accumulates over every step instead of a fresh observer watching the current weight once."""
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
        wo = self.w_observer
        wo(self.weight)
        s_w, _ = wo.calculate_qparams()
        xq = fake_quantize(x, float(s_x), int(z_x), 0, 255)
        wq = fake_quantize(self.weight, float(s_w), 0, -128, 127)
        return F.linear(xq, wq, self.bias)
''',
}
