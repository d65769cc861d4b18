"""clip_grad_norm assigns a new tensor to p.grad (p.grad = p.grad * coef) instead of scaling the existing
gradient in place, and does so with autograd recording."""
CELLS = {"clip_impl": '''def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    params = [p for p in parameters if p.grad is not None]
    if not params:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(p.grad.pow(2).sum() for p in params))
    coef = min(1.0, float(max_norm) / (float(total) + 1e-6))
    for p in params:
        p.grad = p.grad * coef
    return total.detach()
'''}
EXPECT = {"clipping": "fail"}
