"""Round 15: StableSoftplus writes max(x, 0) as torch.maximum(x, torch.zeros(x.shape, dtype=x.dtype)): the zeros
are made without device=, so on a GPU input the forward raises (the text: float32 and float64 inputs, and the
notebook runs on CPU or GPU)."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl", (
    "torch.clamp(x, min=0)", "torch.maximum(x, torch.zeros(x.shape, dtype=x.dtype))"))}
