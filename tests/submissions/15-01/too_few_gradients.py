"""ScaledMul.backward forgets the None for alpha; it also ignores needs_input_grad."""
EXPECT = {"scaled_mul": "fail", "softplus": "pass"}
CELLS = {"scaled_mul_impl": '''
class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return alpha * x * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        return (grad_out * y * ctx.alpha).sum_to_size(x.shape), (grad_out * x * ctx.alpha).sum_to_size(y.shape)
'''}
