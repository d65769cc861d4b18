"""Round 30: quantized_linear accumulates in float64 with a broadcast product and a sum,
`((qx.double() - x_zero_point)[..., None, :] * qw.double()).sum(-1)`, then casts the (exact) sums to int32: no
matmul call and the same integers for every K the checks send, but the products and the accumulator are
floating point. Breaks "It multiplies in integers: acc = (qx - x_zero_point) @ qw.T with both operands and the
result in int32, and no floating-point matrix product"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
    "    acc = ((qx.to(torch.float64) - x_zero_point).unsqueeze(-2) * qw.to(torch.float64)).sum(-1).to(torch.int32)\n"))}
