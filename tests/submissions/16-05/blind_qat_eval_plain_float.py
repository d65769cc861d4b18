"""In eval mode the layer runs as a plain nn.Linear (no fake quantization), so the accuracy measured in eval is the
float model's, not the quantized one's."""
EXPECT = {'qat': 'fail'}
CELLS = {
    'qat_impl': '''
class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)

    def forward(self, x):
        if not self.training:
            return F.linear(x, self.weight, self.bias)
        self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        wobs = RangeObserver(torch.int8, symmetric=True)
        wobs(self.weight)
        s_w, _ = wobs.calculate_qparams()
        return F.linear(fake_quantize(x, float(s_x), int(z_x), 0, 255),
                        fake_quantize(self.weight, float(s_w), 0, -128, 127), self.bias)
''',
}
