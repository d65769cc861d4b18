"""Every pass starts at self.pos, which is reset to 0 only when a pass runs to its end: after an abandoned
pass (or a load_state_dict followed by two passes) the next pass does not start at 0."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", """        order = self.permutation(self.epoch)
        start = self._resume_pos if self._resume_pos is not None else 0
        self._resume_pos = None
        self.pos = start
        for i in range(start, self.num_samples):
            self.pos = i + 1  # counted when handed out: code after `yield` runs only on the next request
            yield order[i]""", """        order = self.permutation(self.epoch)
        start = self.pos
        self._resume_pos = None
        for i in range(start, self.num_samples):
            self.pos = i + 1
            yield order[i]
        self.pos = 0""")}
EXPECT = {"sampler": "fail"}
