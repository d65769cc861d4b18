"""Round 23: quantized_linear accumulates with a broadcast product and a sum, in int64:
`acc = ((qx.long() - zp)[..., None, :] * qw.long()).sum(-1)`. The integers are exact (int64 cannot overflow
here), so the levels are right, but no int32 matrix product runs: operands and accumulator are int64, and the
(…, M, K) intermediate costs M times the memory of the input. Contradicts "It multiplies in integers:
acc = (qx - x_zero_point) @ qw.T with both operands and the result in int32"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
    "    acc = ((qx.to(torch.int64) - x_zero_point)[..., None, :] * qw.to(torch.int64)).sum(-1)\n"))}
