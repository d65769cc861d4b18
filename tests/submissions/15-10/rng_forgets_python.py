"""capture/restore cover torch and NumPy but not Python's random module."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"rng_impl": _c["edited"]("rng_impl", """    random.setstate(state["python"])
""", "")}
EXPECT = {"rng": "fail"}
