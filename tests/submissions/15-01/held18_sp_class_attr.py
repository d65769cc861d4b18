"""Round 18: StableSoftplus keeps its input on the class (StableSoftplus._x) instead of on ctx, so when two
nodes are built before one backward, softplus(a) + softplus(b), the first node's gradient is sigmoid(b)
("a backward that returns grad_out * sigmoid(x)")."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl", (
    """        ctx.save_for_backward(x)
        return torch.clamp""",
    """        StableSoftplus._x = x
        return torch.clamp"""), (
    """        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)""",
    """        return grad_out * torch.sigmoid(StableSoftplus._x)"""))}
