"""Round 15: correct answers written unusually. ScaledMul reduces gradients with its own sum over leading and
size-1 dimensions; StableSoftplus is logaddexp(x, 0) and takes its gradient from the saved output as
-expm1(-out) (= sigmoid(x), accurate at both ends); Clamp saves a mask built from its output and fills with
masked_fill; capture_activations uses with_kwargs hooks and stores clones; attach_grad_clipping reads the norm
as a Python float taken in float64 (.item(), a value a stand-in device cannot give); run_fixed clones before an
in-place add."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "pass", "softplus": "pass", "clamp": "pass", "forward_hooks": "pass",
          "grad_hooks": "pass", "inplace": "pass"}
CELLS = {
    "scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
        "        return alpha * x * y", "        return alpha * torch.mul(x, y)"), (
        """        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)""",
        """        x, y = ctx.saved_tensors

        def reduce(g, shape):
            lead = g.dim() - len(shape)
            if lead:
                g = g.sum(dim=tuple(range(lead)))
            dims = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
            return g.sum(dim=dims, keepdim=True) if dims else g

        gx = reduce(ctx.alpha * grad_out * y, x.shape) if ctx.needs_input_grad[0] else None
        gy = reduce(ctx.alpha * grad_out * x, y.shape) if ctx.needs_input_grad[1] else None""")),
    "softplus_impl": edited("15-01", "softplus_impl", (
        """        ctx.save_for_backward(x)
        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))""",
        """        out = torch.logaddexp(x, torch.zeros_like(x))
        ctx.save_for_backward(out)
        return out"""), (
        """        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)""",
        """        (out,) = ctx.saved_tensors
        return grad_out * -torch.expm1(-out)""")),
    "clamp_impl": edited("15-01", "clamp_impl", (
        """        ctx.save_for_backward((x > lo) & (x < hi))
        return x.clamp(lo, hi)""",
        """        out = torch.clamp(x, min=lo, max=hi)
        ctx.save_for_backward((out > lo) & (out < hi))
        return out"""), (
        "        return torch.where(mask, grad_out, torch.zeros_like(grad_out)), None, None",
        "        return grad_out.masked_fill(~mask, 0.0), None, None")),
    "capture_impl": edited("15-01", "capture_impl", (
        """        def hook(module, inputs, output):
            captured[name] = output.detach()""",
        """        def hook(module, args, kwargs, output):
            captured[name] = output.detach().clone()"""), (
        "handles.append(modules[n].register_forward_hook(make_hook(n)))",
        "handles.append(modules[n].register_forward_hook(make_hook(n), with_kwargs=True))")),
    "grad_clip_impl": edited("15-01", "grad_clip_impl", (
        "        norm = p.grad.norm()",
        "        norm = torch.linalg.vector_norm(p.grad, dtype=torch.float64).item()")),
    "inplace_impl": edited("15-01", "inplace_impl", (
        "    y = torch.exp(x) + 1\n", "    y = torch.exp(x).clone()\n    y.add_(1)\n")),
}
