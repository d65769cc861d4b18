"""clip_grad_norm returns the norm AFTER clipping; NT-Xent only uses the first view's rows as anchors;
the EMA never touches buffers (BatchNorm statistics stay frozen at construction time)."""
EXPECT = {"clip_grad_norm": "fail", "nt_xent": "fail", "ema": "fail",
          "label_smoothing": "pass", "running_metrics": "pass", "clip_grad_value": "pass"}
CELLS = {
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    def total_norm():
        if norm_type == math.inf:
            return torch.stack([g.abs().max() for g in grads]).max()
        return torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]).norm(norm_type)
    coef = torch.clamp(max_norm / (total_norm() + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return total_norm()
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = (z[:n] @ z.T / temperature)
    sim[torch.arange(n), torch.arange(n)] = float("-inf")
    return F.cross_entropy(sim, torch.arange(n, 2 * n))
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model).requires_grad_(False)
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.module.parameters(), model.parameters()):
            if self.num_updates == 0:
                e.copy_(p)
            else:
                e.lerp_(p, 1 - self.decay)
        self.num_updates += 1
''',
}
