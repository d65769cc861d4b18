"""Held-out gap round 4 (wrong): breaks "Tracing a model with a branch emits a `TracerWarning`; ignore that
category": it ignores only the message about converting a tensor to a Python boolean, so the TracerWarning of a
model that converts a tensor to a Python float or int while tracing (float(x.sum()) > 0) reaches stderr."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"trace_mismatches_impl": _C["edit"](
    _C["TRACE"], '        warnings.simplefilter("ignore", torch.jit.TracerWarning)\n',
    '        warnings.filterwarnings("ignore", message="Converting a tensor to a Python boolean")\n')}
EXPECT = {"trace_mismatches": "fail"}
