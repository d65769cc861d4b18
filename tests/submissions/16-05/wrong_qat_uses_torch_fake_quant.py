"""Calls PyTorch's fake quantization instead of the notebook's fake_quantize (values right, the text's rule not)."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "x_fq = fake_quantize(x, float(s_x), int(z_x), 0, 255)",
    "x_fq = torch.fake_quantize_per_tensor_affine(x, float(s_x), int(z_x), 0, 255)"))}
