"""Held-out gap round (wrong): EMA skips live parameters with requires_grad=False ("frozen layers do not
change"), so a frozen parameter keeps its value from construction: the first update does not copy it and a
later change (a loaded checkpoint, an unfrozen layer) never reaches the average."""
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
            if not live.requires_grad:
                continue
            if first:
                e.copy_(live)
            else:
                e.lerp_(live, 1 - self.decay)
        for e, live in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and live.is_floating_point() and not first:
                e.lerp_(live, 1 - self.decay)
            else:
                e.copy_(live)
        self.n += 1
'''}
EXPECT = {"ema": "fail"}
