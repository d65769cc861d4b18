"""Gap-hunting round (issue 39, 2026-12-01): state_dict returns tensors ({"epoch": tensor, "pos": tensor}) instead of plain data. Breaks: "state_dict() returns plain data"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", '        return {"epoch": self.epoch, "pos": pos, "seed": self.seed, "num_samples": self.num_samples}', '        return {"epoch": torch.tensor(self.epoch), "pos": torch.tensor(pos), "seed": torch.tensor(self.seed)}')}
EXPECT = {"sampler": "fail"}
