"""Held-out gap round 8 (wrong): breaks "`True` where `torch.allclose(traced_output, eager_output)` (default
tolerances) is `False`": closeness is written by hand as |t - e| <= 1e-8 + 1e-5 |e| elementwise. For finite
logits that is allclose, but when trace and eager both give the same infinite logit, inf - inf is NaN and the
input is flagged, although torch.allclose counts equal infinities as close."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"trace_mismatches_impl": _C["edit"](
    _C["TRACE"], "result.append(not torch.allclose(traced(x), model(x)))",
    "t, e = traced(x), model(x)\n"
    "                result.append(not bool(((t - e).abs() <= 1e-8 + 1e-5 * e.abs()).all()))")}
EXPECT = {"trace_mismatches": "fail"}
