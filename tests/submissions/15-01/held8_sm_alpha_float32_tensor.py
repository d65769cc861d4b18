"""Wrong (held-out round 8): turns alpha into torch.tensor(alpha), a float32 scalar, so for float64 inputs alpha is
rounded to float32 (0.1 becomes 0.10000000149...) and output and gradients are off by up to 1e-8 relative
("ScaledMul.apply(x, y, alpha) = alpha * x * y", alpha "a Python float")."""
EXPECT = {'scaled_mul': 'fail'}
CELLS = {"scaled_mul_impl": '''
class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        a = torch.tensor(alpha)
        ctx.save_for_backward(x, y, a)
        return a * x * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y, a = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * a).sum_to_size(x.shape)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * a).sum_to_size(y.shape)
        return gx, gy, None
'''}
