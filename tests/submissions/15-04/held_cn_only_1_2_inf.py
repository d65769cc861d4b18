"""Held-out gap round (wrong): clip_grad_norm handles norm_type 1, 2 and inf and raises for any other p
(3, 0.5, ...), which torch.nn.utils.clip_grad_norm_ computes as the p-norm."""
CELLS = {"clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    norm_type = float(norm_type)
    if norm_type == math.inf:
        total = torch.stack([g.detach().abs().max() for g in grads]).max()
    elif norm_type == 1.0:
        total = torch.stack([g.detach().abs().sum() for g in grads]).sum()
    elif norm_type == 2.0:
        total = torch.stack([g.detach().pow(2).sum() for g in grads]).sum().sqrt()
    else:
        raise ValueError(f"unsupported norm_type {norm_type}")
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return total
'''}
EXPECT = {"clip_grad_norm": "fail"}
