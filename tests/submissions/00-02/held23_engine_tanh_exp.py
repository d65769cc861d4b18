"""Held-out round 23: tanh's value is written from exp, `(e^2x - 1) / (e^2x + 1)`, with the input clamped to
[-20, 20] so that large and infinite inputs give +-1 and not NaN. Near 0 the subtraction cancels: tanh(1e-6) in
float32 comes out about 5 % off, and in float16 inputs around 0.01 are a few percent off, where torch.tanh is
exact to rounding (the gradient, 1 - t*t, is built on that value). The text: "Each returns a new `Value` whose
`.data` equals torch's result for the same tensors" and "In float16 too it is torch's gradient"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        t = self.data.tanh()\n",
     "        e2 = (2 * self.data.clamp(-20, 20)).exp()\n"
     "        t = (e2 - 1) / (e2 + 1)\n"))}
