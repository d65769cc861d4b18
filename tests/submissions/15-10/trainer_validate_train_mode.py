"""Validation runs under no_grad but leaves the model in train() mode: dropout is active while validating."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """        self.model.eval()
        losses = []""", """        losses = []""")}
EXPECT = {"trainer": "fail"}
