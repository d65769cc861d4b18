"""StableSoftplus: flattens with x.view(-1) to fill two masked halves, which raises on a non-contiguous input. Breaks 'match F.softplus for float32 and float64 inputs' (any tensor, the header promises non-contiguous ones)."""
EXPECT = {'scaled_mul': 'pass', 'softplus': 'fail', 'logcosh': 'pass', 'clamp': 'pass', 'forward_hooks': 'pass', 'grad_hooks': 'pass', 'inplace': 'pass'}

CELLS = {
    'softplus_impl': '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        flat = x.view(-1)
        out = torch.empty_like(flat)
        pos = flat > 0
        out[pos] = flat[pos] + torch.log1p(torch.exp(-flat[pos]))
        out[~pos] = torch.log1p(torch.exp(flat[~pos]))
        return out.view(x.shape)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)
''',
}
