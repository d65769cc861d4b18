"""Clips with tensor.register_hook (each micro-batch) instead of a post-accumulate-grad hook."""
EXPECT = {"grad_hooks": "fail", "inplace": "pass"}
CELLS = {"grad_clip_impl": '''
def attach_grad_clipping(model, max_norm):
    def clip(g):
        n = g.norm()
        return g * (max_norm / n) if n > max_norm else g
    return [p.register_hook(clip) for p in model.parameters() if p.requires_grad]
'''}
