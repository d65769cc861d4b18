"""Round 26: the constructor's default dtype is int8 (`dtype=torch.int8`), the weights' type, instead of the
text's `dtype=torch.uint8`. Every observer built with an explicit dtype is right; `RangeObserver()` and
`RangeObserver(symmetric=True)` propose int8 parameters: for x = [-1, 3] the zero point is -64 instead of
MinMaxObserver(dtype=torch.quint8)'s 64, and the symmetric zero point 0 instead of 128. Breaks
"RangeObserver(dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None) ... proposes
quantization parameters for dtype"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):\n",
    "    def __init__(self, dtype=torch.int8, symmetric=False, ch_axis=None, averaging_constant=None):\n"))}
