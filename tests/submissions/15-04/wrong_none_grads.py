"""clip_grad_norm assumes every parameter has a .grad (frozen or unused parameters crash it)."""
EXPECT = {"clip_grad_norm": "fail", "label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad, norm_type) for p in params]),
                                     norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in params:
        p.grad.mul_(coef)
    return total
''',
}
