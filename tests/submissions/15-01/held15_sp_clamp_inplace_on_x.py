"""Round 15: StableSoftplus computes max(x, 0) with x.clamp_(min=0), clamping the caller's tensor in place (the
gradient, taken from the saved output as -expm1(-out) = sigmoid(x), is right): after StableSoftplus.apply(x)
the caller's x has lost its negative entries. A Function that "matches F.softplus" leaves its input alone."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl", (
    """        ctx.save_for_backward(x)
        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))""",
    """        out = torch.log1p(torch.exp(-x.abs())).add_(x.clamp_(min=0))
        ctx.save_for_backward(out)
        return out"""), (
    """        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)""",
    """        (out,) = ctx.saved_tensors
        return grad_out * -torch.expm1(-out)"""))}
