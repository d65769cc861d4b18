"""The sampler is not saved; on load its position is rebuilt from batch_in_epoch (a count of BATCHES used as
a count of indices), so a mid-epoch resume with batch_size > 1 replays most of the epoch."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("resume_impl", """        "sampler": sampler.state_dict() if hasattr(sampler, "state_dict") else None,""",
                    """        "sampler": None,""")
_src = _src.replace("""    if ckpt.get("sampler") is not None and hasattr(sampler, "load_state_dict"):
        sampler.load_state_dict(ckpt["sampler"])""", """    if hasattr(sampler, "load_state_dict"):
        sampler.load_state_dict({"epoch": trainer.epoch, "pos": trainer.batch_in_epoch})""", 1)
CELLS = {"resume_impl": _src}
EXPECT = {"resume": "fail"}
