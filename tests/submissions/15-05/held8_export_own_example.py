"""Held-out gap round 8 (wrong): breaks "exports `model` ... on `example`": to keep the example's batch away from
the special sizes the function exports on a fresh torch.rand(min_batch, *example.shape[1:]) instead, which is
float32 whatever `example` is: a float64 model given a float64 example cannot be exported (and the call also
draws from the global random generator)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"export_dynamic_impl": _C["edit"](
    _C["EXPORT"], "(model, (example,),", "(model, (torch.rand(min_batch, *example.shape[1:]),),")}
EXPECT = {"export_dynamic": "fail"}
