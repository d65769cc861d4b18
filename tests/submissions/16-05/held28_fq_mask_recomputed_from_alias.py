"""Round 28: forward keeps a detached alias of x on ctx (`ctx.x = x.detach()`, not save_for_backward) and backward
recomputes the mask from it. The values and gradients are right as long as nobody touches x between forward and
backward; if x is changed in place in between (under no_grad, as an optimizer or a reused buffer does), backward
builds the mask from the new values (PyTorch's kernel keeps the mask of the forward pass): y =
fake_quantize(x, 0.1, 0, -128, 127) with x = [5.0, 20.0], then x.mul_(0.01) under no_grad, then
y.sum().backward() gives x.grad = [1, 1] where PyTorch's backward (and the text) give [1, 0]. Breaks "The gradient with respect to
x is the straight-through estimator: the incoming gradient passes unchanged where quant_min <= round(x * inv) +
zero_point <= quant_max" (x as it was in the forward pass) "as PyTorch's backward"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        ctx.save_for_backward(inside)\n",
    "        ctx.x, ctx.args = x.detach(), (scale, zero_point, quant_min, quant_max)  # mask rebuilt in backward\n"), (
    "        (inside,) = ctx.saved_tensors\n",
    "        scale, zero_point, quant_min, quant_max = ctx.args\n"
    "        level = torch.round(ctx.x * (1.0 / torch.tensor(scale, dtype=torch.float32, device=grad.device))) + zero_point\n"
    "        inside = (level >= quant_min) & (level <= quant_max)\n"))}
