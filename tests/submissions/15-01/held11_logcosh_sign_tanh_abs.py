"""Wrong: "its derivative is tanh(x)" ... "so that gradgradcheck passes" (LogCosh twice differentiable;
log cosh behaves like x**2 / 2 near zero, so its second derivative at 0 is 1). This backward
differentiates the stable forward term by term, sign(x) * tanh(|x|): the right first derivative
everywhere, but sign's derivative is 0 and sign(0) = 0, so the second derivative at exactly x = 0 comes
out 0 instead of 1 (gradgradcheck on random inputs never lands on 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited(
    "15-01", "logcosh_impl",
    ("        return grad_out * torch.tanh(x)\n",
     "        return grad_out * torch.sign(x) * torch.tanh(x.abs())\n"))}
