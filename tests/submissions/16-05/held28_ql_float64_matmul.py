"""Round 28: the matrix product runs in float64 and is cast back to int32,
`acc = ((qx.double() - zp) @ qw.double().T).to(torch.int32)`: every product and partial sum is an integer far
below 2**53, so the values equal the int32 product for any K a test can afford. Breaks "It multiplies in
integers: acc = (qx - x_zero_point) @ qw.T with both operands and the result in int32, and no floating-point
matrix product": wrong on every input, e.g. quantized_linear(qx (3, 16), 0.02, 120, qw (5, 16), ...)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
    "    acc = ((qx.to(torch.float64) - x_zero_point) @ qw.to(torch.float64).T).to(torch.int32)  # exact below 2**53\n"))}
