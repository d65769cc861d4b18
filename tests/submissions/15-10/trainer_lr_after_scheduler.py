"""The history's "lr" is read after scheduler.step(), i.e. the rate of the NEXT step, not the one used."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("trainer_impl", """        lr = float(self.optimizer.param_groups[0]["lr"])
""", "")
_src = _src.replace("""        self.global_step += 1
        self.history.append(""", """        self.global_step += 1
        lr = float(self.optimizer.param_groups[0]["lr"])
        self.history.append(""", 1)
CELLS = {"trainer_impl": _src}
EXPECT = {"trainer": "fail"}
