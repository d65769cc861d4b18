"""Round 28: the batch is flattened for a 2-D product and restored with `acc.reshape(*qx.shape[:-1], -1)`: right
for every non-empty batch and for a 1-D qx, but a zero-size batch, qx of shape (0, K) or (2, 0, K), raises
"cannot reshape tensor of 0 elements into shape [0, -1]" where the text asks for a uint8 tensor of shape (0, M)
(F.linear and the reference return it). Breaks "takes uint8 activations qx of shape (..., K) ... the result is a
uint8 tensor of shape (..., M)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
    "    x2d = qx.reshape(-1, qx.shape[-1]).to(torch.int32) - x_zero_point\n"
    "    acc = (x2d @ qw.to(torch.int32).T).reshape(*qx.shape[:-1], -1)\n"))}
