"""Round 24 (held out): the overview says "smooth_clip: the operator c1601::smooth_clip with a CPU kernel and a
fake kernel", so the student registers the kernel for the CPU only (custom_op(..., device_types="cpu")). On the
CPU, under FakeTensorMode and on the meta device (where the fake kernel runs) everything is right, but the
operator has no kernel for CUDA: smooth_clip(x, 2.0) on a GPU tensor raises NotImplementedError, against
"returns limit * tanh(x / limit) for any floating x ..." and "The output is a new tensor with x's shape, dtype and
device"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    '@torch.library.custom_op("c1601::smooth_clip", mutates_args=())\n',
    '@torch.library.custom_op("c1601::smooth_clip", mutates_args=(), device_types="cpu")\n'))}
