"""Held-out round 14: the averaged weights live in a `shadow` dict (name -> tensor) that is a CLASS
attribute, so every EMA instance shares it; one EMA alone is right, but with two EMAs updated in turn each
blends the other's shadow (same names, "0.weight", ...). The text: "`EMA(model, ...)` keeps a deep copy of
`model` in `self.module`"; "every later call sets each parameter to `decay * ema + (1 - decay) * live`"."""

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": '''
class EMA:
    """Exponential moving average of a model's weights, kept in `self.module`."""
    shadow = {}   # parameter name -> averaged tensor

    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0.0 <= decay <= 1.0:
            raise ValueError(f"decay must be in [0, 1], got {decay}")
        self.decay = float(decay)
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.num_updates = 0

    def update(self, model):
        """Fold the live model's current weights into the average."""
        first = self.num_updates == 0
        with torch.no_grad():
            for name, p in model.named_parameters():
                if first:
                    self.shadow[name] = p.detach().clone()
                else:
                    self.shadow[name].lerp_(p, 1.0 - self.decay)
            for name, ema_p in self.module.named_parameters():
                ema_p.copy_(self.shadow[name])
            for ema_b, b in zip(self.module.buffers(), model.buffers()):
                if self.average_buffers and not first and ema_b.is_floating_point():
                    ema_b.lerp_(b.to(ema_b.device), 1.0 - self.decay)
                else:
                    ema_b.copy_(b)
        self.num_updates += 1
'''}
