"""The sampler counts an index after the yield returns: with a lazy DataLoader, state_dict() taken after b
batches reports one index fewer than were handed out, so a resumed pass repeats one sample."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", """            self.pos = i + 1  # counted when handed out: code after `yield` runs only on the next request
            yield order[i]""", """            yield order[i]
            self.pos = i + 1""")}
EXPECT = {"sampler": "fail"}
