"""Held-out gap round (correct, unusual): one writer's own sampler, checkpoint, Trainer and resume cells
(recursive to_device, a regex that sorts step files by number, mkstemp + fdopen, history copied row by row).
Corrected in place in round 14s: its fit() moved an epoch-end checkpoint (batch_in_epoch == len(loader)) to the
start of the next epoch, which with a loader drawing from the global generator at iter() is not bit-exact (the
pending restore undoes the next iterator's draw; the text: the loop starts "from the restored epoch and
batch_in_epoch"); test_resume_loader_without_own_generator's [3, 4, 5] caught it."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"sampler_impl": _C["SAMPLER"], "checkpoint_impl": _C["CHECKPOINT"], "trainer_impl": _C["TRAINER"],
         "resume_impl": _C["RESUME"], "clip_impl": _C["CLIP"]}
EXPECT = {"sampler": "pass", "checkpoint": "pass", "trainer": "pass", "resume": "pass", "clipping": "pass"}
