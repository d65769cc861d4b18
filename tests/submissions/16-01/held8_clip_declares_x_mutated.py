"""Wrong (held-out round 8): smooth_clip is registered with mutates_args={"x"}, so its schema reads
`Tensor(a!) x` although the kernel writes nothing. Breaks "Register the operator c1601::smooth_clip ...
taking a tensor x and a float limit, mutating nothing" (Exercise 1, first bullet). PyTorch then also refuses the
correct autograd formula of the next cell (a backward through an operator with a mutable argument raises "no
autograd formula was registered"), so clip_grad fails with it."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    '@torch.library.custom_op("c1601::smooth_clip", mutates_args=())',
    '@torch.library.custom_op("c1601::smooth_clip", mutates_args={"x"})'))}
