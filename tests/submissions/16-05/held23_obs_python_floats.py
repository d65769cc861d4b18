"""Round 23: per tensor, the observer keeps min_val / max_val as Python floats (`.item()`), and the moving average
runs in Python (double) arithmetic; calculate_qparams turns them into float32 tensors on the CPU. The qparams agree
with PyTorch's (to the last bits the text allows) on the CPU, but min_val is not a tensor, `.item()` makes the GPU
wait at every call, and the qparams it returns are CPU tensors for a GPU x. Contradicts "records ... in the
attributes min_val and max_val, float32 tensors" and "Every tensor it creates is on x's device"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            lo, hi = torch.aminmax(y)\n",
    "            lo, hi = (v.item() for v in torch.aminmax(y))\n"), (
    "        if self.min_val is None:\n",
    "        if self.ch_axis is None and self.min_val is not None and self.c is None:\n"
    "            self.min_val, self.max_val = min(self.min_val, lo), max(self.max_val, hi)\n"
    "        elif self.min_val is None:\n"), (
    "        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n"
    "        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)\n",
    "        lo = torch.clamp(torch.as_tensor(self.min_val, dtype=torch.float32), max=0.0).reshape(-1)\n"
    "        hi = torch.clamp(torch.as_tensor(self.max_val, dtype=torch.float32), min=0.0).reshape(-1)\n"))}
