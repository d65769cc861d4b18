"""Round 26, correct but unusual: the activation zero point is folded out of the matrix product, as fbgemm does,
`acc = qx @ qw.T - x_zero_point * rowsum(qw)`, all in int32 (the row sums with dtype=torch.int32, the Python int
zero point keeps int32). The matrix product runs on int32 operands into an int32 result and no float product
runs; the integers equal (qx - x_zero_point) @ qw.T exactly, and where int32 would wrap both wrap the same way
(two's complement arithmetic is exact modulo 2^32), so the accumulator is the reference's on every input."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "pass", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
    "    w32 = qw.to(torch.int32)\n"
    "    acc = qx.to(torch.int32) @ w32.T - x_zero_point * w32.sum(dim=1, dtype=torch.int32)\n"))}
