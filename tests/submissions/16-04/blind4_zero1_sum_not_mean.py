"""The all-reduced gradient is the sum over the W ranks and is never divided by W. AdamW hides most of the
factor (m / sqrt(v) is nearly scale-free) but not through eps. Breaks: "every rank's `params` hold exactly
what one step of `torch.optim.AdamW` ... gives on a single process whose gradient is the **mean** of the W
ranks' gradients"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": edit("zero1_impl", ("    flat_g /= world\n", ""))}
