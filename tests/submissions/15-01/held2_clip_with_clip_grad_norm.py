"""Wrong (held-out round 2): each hook calls torch.nn.utils.clip_grad_norm_([p], max_norm), which multiplies
by max_norm / (norm + 1e-6), not max_norm / norm ("multiply by max_norm / norm when norm > max_norm")."""
EXPECT = {'grad_hooks': 'fail'}
CELLS = {"grad_clip_impl": '''
def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    def clip(p):
        torch.nn.utils.clip_grad_norm_([p], max_norm)

    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]
'''}
