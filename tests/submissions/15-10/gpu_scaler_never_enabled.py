"""Known-wrong on a GPU only: precision="fp16" creates a GradScaler that is always disabled, so fp16
gradients on CUDA are never scaled (they underflow). On the CPU the reference's scaler is disabled too."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """torch.amp.GradScaler(self.device.type, enabled=self.device.type == "cuda")""",
                                      """torch.amp.GradScaler(self.device.type, enabled=False)""")}
# No EXPECT: every CPU check passes it. What a GPU must give it (make test-gpu, docs/gpu.md):
EXPECT_GPU = {"trainer": "fail"}
