"""set_epoch always resets the position, even for the epoch the sampler already has: the Trainer's
set_epoch call before the resumed epoch wipes the pending resume position."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", """        if int(epoch) != self.epoch:
            self.epoch = int(epoch)
            self.pos = 0
            self._resume_pos = None""", """        self.epoch = int(epoch)
        self.pos = 0
        self._resume_pos = None""")}
EXPECT = {"sampler": "fail"}
