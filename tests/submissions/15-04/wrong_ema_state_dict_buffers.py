"""Found by the third blind batch of issue #19 (2026-11-26): the EMA updates everything by walking
model.state_dict(). Buffers registered with persistent=False are not in a state dict, so they are never
copied (average_buffers=False) or averaged (average_buffers=True). Breaks "copy every buffer from model"
and "equal those of AveragedModel", which walks module.buffers() (test_non_persistent_buffers)."""
EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass", "clip_grad_value": "pass", "ema": "fail"}

CELLS = {
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0.0 <= decay <= 1.0:
            raise ValueError(f"decay must be in [0, 1], got {decay}")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.n_updates = 0

    @torch.no_grad()
    def update(self, model):
        d = self.decay
        live = model.state_dict()
        param_names = {name for name, _ in model.named_parameters()}
        for name, t in self.module.state_dict().items():
            src = live[name]
            blend = self.n_updates > 0 and src.is_floating_point() and (name in param_names or self.average_buffers)
            if blend:
                t.lerp_(src, 1 - d)
            else:
                t.copy_(src)
        self.n_updates += 1
''',
}
