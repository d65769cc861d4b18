"""Held-out round 11: dequantize short-cuts an empty q to torch.empty(0), so a zero-size q of shape (0, 4) or
(3, 0) comes back as shape (0,) (and on the CPU whatever q's device); the text says both functions take tensors
of any shape, zero-size included, and dequantize returns (q - zero_point) * scale, which keeps q's shape."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("    scale = torch.as_tensor(scale, dtype=torch.float32, device=q.device)\n",
     "    if q.numel() == 0:\n"
     "        return torch.empty(0)\n"
     "    scale = torch.as_tensor(scale, dtype=torch.float32, device=q.device)\n"))}
