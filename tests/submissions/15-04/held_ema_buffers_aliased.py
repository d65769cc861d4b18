"""Held-out gap round (wrong): EMA "copies" buffers with e.data = b.data, so after an update the averaged
model's running_mean is the live model's tensor: the next train-mode forward of the live model moves it."""
CELLS = {"ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not (0.0 <= decay <= 1.0):
            raise ValueError(f"decay must be in [0, 1], got {decay}")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.n = 0

    @torch.no_grad()
    def update(self, model):
        first = self.n == 0
        for e, live in zip(self.module.parameters(), model.parameters()):
            if first:
                e.copy_(live)
            else:
                e.lerp_(live, 1 - self.decay)
        for e, live in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and live.is_floating_point() and not first:
                e.lerp_(live, 1 - self.decay)
            elif self.average_buffers:
                e.copy_(live)
            else:
                e.data = live.data
        self.n += 1
'''}
EXPECT = {"ema": "fail"}
