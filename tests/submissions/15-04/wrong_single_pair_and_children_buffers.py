"""Two mistakes found by the blind batch of issue #19 (2026-11-26):
- nt_xent returns torch.tensor(0.0) early for a single pair: float32 for float64 inputs ("a 0-dim tensor
  in the dtype of z1 and z2", test_nt_xent_single_pair_is_zero);
- EMA copies buffers only for BatchNorm layers among model.children(): a BatchNorm nested in a block and
  any other buffer are never copied ("copy every buffer from model", test_nested_model_every_buffer)."""
EXPECT = {"label_smoothing": "pass", "nt_xent": "fail", "running_metrics": "pass", "clip_grad_norm": "pass", "clip_grad_value": "pass", "ema": "fail"}

CELLS = {
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    if n == 1:
        return torch.tensor(0.0)      # only the positive is left: the loss is 0
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = (z @ z.t()) / temperature
    sim.fill_diagonal_(float("-inf"))
    pos = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return (-sim[torch.arange(2 * n, device=z.device), pos] + torch.logsumexp(sim, dim=1)).mean()
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0 <= decay <= 1:
            raise ValueError("decay must be in [0, 1]")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        for p in self.module.parameters():
            p.requires_grad = False
        self.updates = 0

    @torch.no_grad()
    def update(self, model):
        d = self.decay
        for e, p in zip(self.module.parameters(), model.parameters()):
            if self.updates == 0:
                e.copy_(p)
            else:
                e.mul_(d).add_(p, alpha=1 - d)
        for em, mm in zip(self.module.children(), model.children()):
            if isinstance(mm, nn.modules.batchnorm._BatchNorm):
                for name in ("running_mean", "running_var"):
                    e, b = getattr(em, name), getattr(mm, name)
                    if self.average_buffers and self.updates > 0:
                        e.mul_(d).add_(b, alpha=1 - d)
                    else:
                        e.copy_(b)
                em.num_batches_tracked.copy_(mm.num_batches_tracked)
        self.updates += 1
''',
}
