"""How many CUDA GPUs this grading machine has, as torch counts them, without importing torch where no
GPU driver's device node exists (importing it costs seconds of CPU in a process that needs nothing else
of it: the pipeline, plain autograde's hooks)."""
from __future__ import annotations

import os
import sys

# Without one of these, the CUDA (or ROCm) runtime finds no device: NVIDIA's control node, ROCm's kernel
# driver, and WSL2's GPU paravirtualisation device.
DRIVER_NODES = ("/dev/nvidiactl", "/dev/kfd", "/dev/dxg")


def count() -> int:
    if "torch" not in sys.modules and not any(os.path.exists(d) for d in DRIVER_NODES):
        return 0
    import torch
    return torch.cuda.device_count() if torch.cuda.is_available() else 0
