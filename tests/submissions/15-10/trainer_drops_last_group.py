"""The optimizer steps only when batch_in_epoch is a multiple of accum_steps: an epoch whose length is not
a multiple of accum_steps leaves its last, incomplete group unstepped (its gradient leaks into the next
epoch's first step)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl",
                                      "if self.batch_in_epoch % self.accum_steps == 0 or self.batch_in_epoch == n_batches:",
                                      "if self.batch_in_epoch % self.accum_steps == 0:")}
EXPECT = {"trainer": "fail"}
