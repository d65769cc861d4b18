"""Round 23, second pass (not counted): with bias=None, quantized_linear adds `torch.zeros(M)`, built without
device=, so that the rescale and the bias are one line for both cases. On the CPU the result is the same; on a
GPU the (M,) zeros are a CPU tensor that a CUDA y cannot be added to (only 0-dim CPU tensors mix), and the call
raises. Contradicts "Every tensor you create is on qx's device"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    if bias is not None:\n        y = y + bias\n",
    "    if bias is None:\n        bias = torch.zeros(qw.shape[0])\n    y = y + bias\n"))}
