"""The history is not part of the checkpoint: after a resume the logged curve starts again empty."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("resume_impl", """        "history": [dict(row) for row in trainer.history],
""", "")
_src = _src.replace("""    trainer.history = [dict(row) for row in ckpt.get("history", [])]
""", "", 1)
CELLS = {"resume_impl": _src}
EXPECT = {"resume": "fail"}
