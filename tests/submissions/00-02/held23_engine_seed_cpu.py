"""Held-out round 23: backward seeds the output's gradient with `torch.tensor(1.0, dtype=self.data.dtype)`, a
0-dim tensor built without `device=`, so on the CPU. Ops mixing it with a GPU tensor still work (a CPU 0-dim
tensor combines with any device), but when `out` is itself a leaf, or reaches a leaf through `sum()` alone
(`a.sum().backward()`, the gradient is the seed expanded), that leaf's `.grad` is a CPU tensor for a leaf on the
GPU. The text: "adds d(out)/d(leaf) into `.grad` of every leaf ..., with the leaf's shape, dtype and device"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        grads = {id(self): torch.ones_like(self.data)}\n",
     "        grads = {id(self): torch.tensor(1.0, dtype=self.data.dtype)}\n"))}
