"""Wrong (held-out round 24): Trainer.autocast picks the autocast device type from torch.cuda.is_available()
instead of from self.device: on a machine with a GPU, a Trainer built with device="cpu" and precision="bf16"
(as the resumption demo's CPU runs would be with bf16) gets torch.autocast("cuda", ...), which does not touch CPU
operations, so its forward runs in float32. Contradicts 'precision="bf16" runs forward and loss under
torch.autocast(device.type, dtype=torch.bfloat16)' (device.type, the Trainer's device). Goes wrong on: CUDA
available (a GPU node), device="cpu", precision "bf16" (raises on a machine without a driver) or "fp16"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
EXPECT_GPU = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ('        if self.precision == "bf16":\n            return torch.autocast(self.device.type, dtype=torch.bfloat16)\n'
     '        if self.precision == "fp16":\n            return torch.autocast(self.device.type, dtype=torch.float16)\n',
     '        kind = "cuda" if torch.cuda.is_available() else "cpu"\n'
     '        if self.precision == "bf16":\n            return torch.autocast(kind, dtype=torch.bfloat16)\n'
     '        if self.precision == "fp16":\n            return torch.autocast(kind, dtype=torch.float16)\n'))}
