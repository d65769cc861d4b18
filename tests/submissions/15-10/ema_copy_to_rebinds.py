"""copy_to rebinds p.data to the shadow tensors instead of copying into the parameters: the module and the
EMA then share storage, and training the module afterwards changes the average."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"callbacks_impl": _c["edited"]("callbacks_impl", """            for p, s in zip(module.parameters(), self.shadow):
                p.copy_(s)""", """            for p, s in zip(module.parameters(), self.shadow):
                p.data = s""")}
EXPECT = {"callbacks": "fail"}
