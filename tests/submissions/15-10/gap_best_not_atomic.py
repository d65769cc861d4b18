"""Gap-hunting round (issue 39, 2026-12-01): CheckpointCallback writes best.pt with a plain torch.save (a crash mid-write corrupts it). Breaks: "write everything with atomic_save"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl", '            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))', '            torch.save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))')}
EXPECT = {"checkpoint": "fail"}
