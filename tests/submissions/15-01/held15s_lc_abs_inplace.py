"""Round 15 (strengthening, after the count): LogCosh takes |x| with x.abs_(), changing the caller's tensor; it
saves a clone of x taken first, so its values and gradients are right. Caught by the new input check, and by the
save_for_backward check (an in-place change of the input after forward goes unnoticed with a clone saved)."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    """        ctx.save_for_backward(x)
        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)""",
    """        ctx.save_for_backward(x.clone())
        a = x.abs_()
        return a + torch.log1p(torch.exp(-2 * a)) - math.log(2.0)"""))}
