"""Known-wrong (blind batch, issue #19 third round): the clipping hook computes max_norm / norm.item() before comparing, so a parameter whose gradient is all zeros raises ZeroDivisionError inside backward (breaks 'leave it alone otherwise'). Caught by test_clipping_leaves_zero_gradient_alone."""
EXPECT = {'scaled_mul': 'pass', 'softplus': 'pass', 'logcosh': 'pass', 'clamp': 'pass', 'forward_hooks': 'pass', 'grad_hooks': 'fail', 'inplace': 'pass'}
BASE = "reference"

CELLS = {
    'grad_clip_impl': '''
def attach_grad_clipping(model, max_norm):
    def hook(p):
        scale = max_norm / p.grad.norm().item()
        if scale < 1.0:
            p.grad.mul_(scale)

    return [p.register_post_accumulate_grad_hook(hook) for p in model.parameters() if p.requires_grad]
''',
}
