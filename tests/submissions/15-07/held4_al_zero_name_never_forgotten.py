"""Held-out gap round 4 (wrong): breaks "Zero bytes: nothing happens, but remember the name so that
`free(name)` works" together with rule 6: names of 0-byte tensors go into a set that free never empties, so
when the name is used again for a real tensor, ("free", name) is taken for the 0-byte one and the block is
never freed (allocated stays up)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

_src = _C["edit"](_C["ALLOCATOR"], "        self.placed = {}", "        self.empty_names = set()\n        self.placed = {}")
_src = _C["edit"](_src, "        if nbytes == 0:\n            self.placed[name] = None\n",
                  "        if nbytes == 0:\n            self.empty_names.add(name)\n")
_src = _C["edit"](_src, "        where = self.placed.pop(name)\n        if where is None:\n",
                  "        if name in self.empty_names:\n            return\n        where = self.placed.pop(name)\n        if where is None:\n")
CELLS = {"allocator_impl": _src}
EXPECT = {"allocator_model": "fail"}
