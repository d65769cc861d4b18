"""Gap-hunting round (issue 39, 2026-12-01): CheckpointCallback writes last.pt with a plain torch.save. Breaks: "write everything with atomic_save"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl", '        atomic_save(ckpt, os.path.join(self.dirpath, "last.pt"))', '        torch.save(ckpt, os.path.join(self.dirpath, "last.pt"))')}
EXPECT = {"checkpoint": "fail"}
