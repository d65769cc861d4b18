"""make_loader builds the DataLoader without its own generator=, so creating each epoch's iterator draws
from the global torch generator."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", """                      sampler=ResumableRandomSampler(len(dataset), seed),
                      generator=torch.Generator().manual_seed(seed))""", """                      sampler=ResumableRandomSampler(len(dataset), seed))""")}
EXPECT = {"sampler": "fail"}
