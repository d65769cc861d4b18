"""Wrong (held-out round 30): EMACallback's first update makes the shadow with torch.zeros(w.shape,
dtype=w.dtype) (no device=) and copies the weights into it, so the shadow lives on the CPU whatever the
model's device. Section 4: the first update "copies the weights"; every later one blends
ema <- decay*ema + (1-decay)*w in place. With a model on any other device (a GPU, or the checks' stand-in
device) the blend s.mul_(decay).add_(w) mixes devices and raises at the second optimizer step (and on the
meta device the first copy already fails). Dtype, values and detachment are right on a CPU model."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("                self.shadow = [w.clone() for w in weights]\n",
     "                self.shadow = [torch.zeros(w.shape, dtype=w.dtype).copy_(w) for w in weights]\n"))}
