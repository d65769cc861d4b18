"""CheckpointCallback saves whenever global_step is a multiple of every_n_steps, without remembering that
it already saved this step: with accumulation the following batches of the group overwrite last.pt and
step-*.pt with a state that is no longer at the step boundary."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl",
                                         "if step <= 0 or step % self.every_n_steps != 0 or step == self.last_saved_step:",
                                         "if step <= 0 or step % self.every_n_steps != 0:")}
EXPECT = {"checkpoint": "fail"}
