"""Recomputes the block in backward without restoring the RNG state: dropout draws a new mask, so the gradients
belong to a different network than the output (and backward moves the global RNG on)."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "fail"}
CELLS = {"checkpoint_impl": '''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.block = block
        ctx.save_for_backward(x)
        with torch.no_grad():
            return block(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        params = list(ctx.block.parameters())
        with torch.enable_grad():
            xd = x.detach().requires_grad_(True)
            out = ctx.block(xd)
            grads = torch.autograd.grad(out, [xd] + params, grad_out)
        return (None, grads[0] if ctx.needs_input_grad[1] else None, *grads[1:])


def checkpoint(block, x):
    return Checkpoint.apply(block, x, *block.parameters())
'''}
