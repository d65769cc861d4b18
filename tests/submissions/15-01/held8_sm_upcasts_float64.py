"""Wrong (held-out round 8): computes in float64 "for precision" and returns a float64 output for float32 inputs,
where alpha * x * y stays float32 ("ScaledMul.apply(x, y, alpha) = alpha * x * y")."""
EXPECT = {'scaled_mul': 'fail'}
CELLS = {"scaled_mul_impl": '''
class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return alpha * x.double() * y.double()

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape).to(x.dtype)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape).to(y.dtype)
        return gx, gy, None
'''}
