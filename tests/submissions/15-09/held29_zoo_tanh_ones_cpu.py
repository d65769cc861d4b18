"""Held-out round 29 (15-09 zoo): fixed_tanh_loss avoids the in-place h += 1 with h = h + torch.ones(h.shape): a
tensor made without device= and dtype=, so on the CPU in float32. For float32/float64 CPU inputs the value and the
gradients are right; for inputs on a GPU (or the meta device) x @ w + a CPU (non-scalar) tensor raises "Expected all
tensors to be on the same device", and for float16/bfloat16 inputs the loss comes back in float32 (type promotion).
Breaks "fixed_tanh_loss(x, w) returns ((tanh(x @ w) + 1) ** 2).mean()" (what the broken version meant, on its
inputs' device and in their dtype) and the zoo's "The wrong device" lesson."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "    h = h + 1\n",
    "    h = h + torch.ones(h.shape)  # out of place, so tanh's saved output stays intact\n"))}
