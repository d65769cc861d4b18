"""Wrong, from the fourth blind batch of issue #19 (2026-11-27): the EMA turns requires_grad off on the live
model, deep-copies it and turns requires_grad back on for every parameter. The copy is right, but a layer the
user had frozen becomes trainable again, against "never modify `model`". test_averaged_parameters_do_not_require_grad
now freezes one live parameter before building the EMA and checks that it stays frozen."""
EXPECT = {'label_smoothing': 'pass', 'nt_xent': 'pass', 'running_metrics': 'pass', 'clip_grad_norm': 'pass', 'clip_grad_value': 'pass', 'ema': 'fail'}
BASE = "reference"
CELLS = {
    'ema_impl': '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0.0 <= decay <= 1.0:
            raise ValueError("decay must be in [0, 1]")
        self.decay = decay
        self.average_buffers = average_buffers
        model.requires_grad_(False)
        self.module = copy.deepcopy(model)
        model.requires_grad_(True)
        self.n = 0

    @torch.no_grad()
    def update(self, model):
        first = self.n == 0
        self.n += 1
        for e, p in zip(self.module.parameters(), model.parameters()):
            if first:
                e.copy_(p)
            else:
                e.lerp_(p, 1 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and not first and b.is_floating_point():
                e.lerp_(b, 1 - self.decay)
            else:
                e.copy_(b)
''',
}
