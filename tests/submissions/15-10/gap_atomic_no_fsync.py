"""Gap-hunting round (issue 39, 2026-12-01): atomic_save flushes but never calls os.fsync, so the bytes may still sit in the page cache when the rename makes them visible. Breaks: "flush it and os.fsync it"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl", '            f.flush()\n            os.fsync(f.fileno())\n', '            f.flush()\n')}
EXPECT = {"checkpoint": "fail"}
