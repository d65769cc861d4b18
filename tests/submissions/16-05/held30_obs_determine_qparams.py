"""Round 30: calculate_qparams hands the recorded range to PyTorch's own observer arithmetic,
`torch.ao.quantization.utils.determine_qparams` (the function PyTorch's observers are built on), and casts its
float64 scale back to float32: equal to the observers on the CPU, but not written from tensor operations. Breaks
"Write it from tensor operations, without PyTorch's observers"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n",
    "        from torch.ao.quantization.utils import determine_qparams\n"
    "        if self.ch_axis is None:\n"
    "            scheme = torch.per_tensor_symmetric if self.symmetric else torch.per_tensor_affine\n"
    "        else:\n"
    "            scheme = torch.per_channel_symmetric if self.symmetric else torch.per_channel_affine\n"
    "        s, z = determine_qparams(self.min_val, self.max_val, self.qmin, self.qmax, self.dtype,\n"
    "                                 torch.tensor([torch.finfo(torch.float32).eps]), False, scheme)\n"
    "        return s.to(torch.float32).reshape(-1), z.reshape(-1)\n"
    "        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n"))}
