"""Round 26 (held out): the operator is registered with device_types=("cpu", "cuda"), the two devices the student
knows. It computes the right values on the CPU and on a CUDA GPU, but on any other device (an XPU, an MPS GPU, a
PrivateUse1 backend) there is no kernel and the call raises. Breaks "with one kernel for every device (no
device_types)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "@torch.library.custom_op(\"c1601::smooth_clip\", mutates_args=())\n",
    "@torch.library.custom_op(\"c1601::smooth_clip\", mutates_args=(), device_types=(\"cpu\", \"cuda\"))\n"))}
