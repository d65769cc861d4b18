"""find_nan_origin runs torch.autograd.grad(loss, x) instead of loss.backward(): the same NaN reports, but x.grad
(and every other leaf's .grad) is never filled, although the text says it runs loss.backward() once."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "                loss.backward()\n",
    "                torch.autograd.grad(loss, x, allow_unused=True)  # no .grad side effects\n"))}
