"""Held-out round 29 (15-09 anomaly): find_nan_origin runs loss.backward(inputs=[x]) ("only x's gradient
matters"). Backward then runs only the part of the graph that leads to x: a NaN made by the backward of a node
that only a parameter of loss_fn reaches (loss_fn(x) = (x * torch.where(w > 0, torch.log(w), 0)).sum() with a
captured leaf w = [0., 1.] that requires a gradient: LogBackward0 returns 0 / 0 for w[0]) is never computed, so
the function returns None where anomaly mode on the loss.backward() the text prescribes reports LogBackward0.
Breaks "runs loss = loss_fn(x) and loss.backward() once, with anomaly detection on ... If anomaly mode reports a
backward function that returned NaN, return a dict"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "                loss.backward()\n",
    "                loss.backward(inputs=[x])  # only x's gradient is asked for\n"))}
