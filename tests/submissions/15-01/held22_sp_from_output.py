"""Round 22, correct: StableSoftplus saves its output y = softplus(x) instead of x and returns
grad_out * -expm1(-y), since sigmoid(x) = 1 - exp(-softplus(x)); expm1 keeps the relative accuracy where
y ~ exp(x) is tiny, and y = x far out gives 1 - exp(-x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "pass"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl", (
    """        ctx.save_for_backward(x)
        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))""",
    """        y = torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))
        ctx.save_for_backward(y)
        return y"""), (
    """        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)""",
    """        (y,) = ctx.saved_tensors
        return grad_out * -torch.expm1(-y)"""))}
