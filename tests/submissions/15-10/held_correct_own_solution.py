"""Held-out gap round (correct, unusual): one writer's own sampler, checkpoint, Trainer and resume cells
(recursive to_device, a regex that sorts step files by number, mkstemp + fdopen, history copied row by row)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"sampler_impl": _C["SAMPLER"], "checkpoint_impl": _C["CHECKPOINT"], "trainer_impl": _C["TRAINER"],
         "resume_impl": _C["RESUME"], "clip_impl": _C["CLIP"]}
EXPECT = {"sampler": "pass", "checkpoint": "pass", "trainer": "pass", "resume": "pass", "clipping": "pass"}
