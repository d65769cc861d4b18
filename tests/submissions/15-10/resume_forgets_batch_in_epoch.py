"""trainer_load_state_dict restores global_step and epoch but not batch_in_epoch: the resumed epoch counts
its batches from 0 again, so with an odd number of batches per epoch its last group is never stepped."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """    trainer.batch_in_epoch = int(ckpt["batch_in_epoch"])
""", "")}
EXPECT = {"resume": "fail"}
