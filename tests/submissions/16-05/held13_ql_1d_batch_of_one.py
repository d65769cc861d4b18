# A single activation vector qx of shape (K,) is made a batch of one and never squeezed back: the result
# has shape (1, M) instead of (M,). Breaks "uint8 activations qx of shape (..., K) ... a uint8 tensor of
# shape (..., M)" with no leading dimensions.
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
    "    if qx.dim() == 1:\n        qx = qx.unsqueeze(0)  # one vector: a batch of one\n"
    "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n"))}
