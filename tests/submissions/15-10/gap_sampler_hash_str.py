"""Gap-hunting round (issue 39, 2026-12-01): the permutation is seeded from hash(f"{seed}/{epoch}"): the same in one process, different in another (Python salts str hashes per process). Breaks: "Same seed and epoch, same order, in any process"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", '        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))', '        g = torch.Generator().manual_seed(hash(f"{self.seed}/{int(epoch)}") % 2**62)')}
EXPECT = {"sampler": "fail"}
