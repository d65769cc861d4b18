"""Round 19: RangeObserver computes the affine zero point "as PyTorch's kernels do" by multiplying with the
inverse, qmin - round(lo * (1 / scale)), carrying exercise 1's rule into the observer. lo / scale and
lo * (1 / scale) differ in the last bit, and so after rounding, only when lo / scale lies within an ulp of a
half: about 3 ranges in a million random ones. The text: "zero_point = qmin - round(lo / scale), clamped to the
levels", and "the result equals that of PyTorch's observer of the same kind"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "torch.round(lo / scale)",
    "torch.round(lo * (1.0 / scale))"))}
