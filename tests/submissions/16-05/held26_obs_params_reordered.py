"""Round 26: the constructor takes its arguments in another order, `(dtype, ch_axis, symmetric,
averaging_constant)` (the per-channel axis next to the dtype). Every call with keywords is right; a positional
call as the signature in the text allows is not: `RangeObserver(torch.int8, True)` is meant to be symmetric per
tensor, and here it observes per channel along axis True == 1 with the affine scheme (for x (3, 5) min_val has
shape (5,) instead of 0-dim). Breaks "RangeObserver(dtype=torch.uint8, symmetric=False, ch_axis=None,
averaging_constant=None) is an nn.Module"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):\n",
    "    def __init__(self, dtype=torch.uint8, ch_axis=None, symmetric=False, averaging_constant=None):\n"))}
