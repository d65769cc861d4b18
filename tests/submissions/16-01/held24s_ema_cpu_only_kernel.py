"""Round 24, second pass (not counted): register_ema registers ema_ for the CPU only
(custom_op(..., mutates_args={"avg"}, device_types="cpu")). Right on the CPU and under aot_eager; for an avg on a
GPU the operator has no kernel and raises NotImplementedError, against "Every tensor it creates is on avg's
device, so it runs on a GPU as on the CPU" (the twin of held24_clip_cpu_only_kernel for ema_)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    '    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})\n',
    '    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"}, device_types="cpu")\n'))}
