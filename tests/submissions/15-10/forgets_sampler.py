"""A Trainer that does not restore the sampler's position: a resumed epoch starts its order again."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """    if ckpt.get("sampler") is not None and hasattr(sampler, "load_state_dict"):
        sampler.load_state_dict(ckpt["sampler"])
""", "")}
# resuming exactly at an epoch boundary (k=3) happens to be right: at least one check must fail
EXPECT = {"resume": "fail"}  # the other tasks are the reference's
