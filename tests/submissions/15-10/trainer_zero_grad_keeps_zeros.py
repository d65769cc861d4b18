"""zero_grad(set_to_none=False) everywhere, on the belief that zeros and None are the same: a parameter that
gets no gradient keeps a zero one, and AdamW's weight decay (and momentum) still move it."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["reference_cell"]("trainer_impl").replace("zero_grad(set_to_none=True)",
                                                                    "zero_grad(set_to_none=False)")}
EXPECT = {"trainer": "fail"}
