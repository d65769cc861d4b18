"""Held-out gap round (wrong): EMA averages only float32 and float64 tensors and copies everything else, so a
float16 or bfloat16 parameter or buffer is copied, where AveragedModel averages every floating-point tensor."""
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
        pairs = list(zip(self.module.parameters(), model.parameters()))
        bufs = list(zip(self.module.buffers(), model.buffers()))
        if self.average_buffers:
            pairs += bufs
            bufs = []
        for e, live in pairs:
            if self.n == 0 or e.dtype not in (torch.float32, torch.float64):
                e.copy_(live)
            else:
                e.mul_(self.decay).add_(live, alpha=1 - self.decay)
        for e, live in bufs:
            e.copy_(live)
        self.n += 1
'''}
EXPECT = {"ema": "fail"}
