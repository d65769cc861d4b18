"""fit() never calls model.train(): a model handed over in eval() mode (after an evaluation) trains with
dropout and batch-norm statistics switched off until the first validation puts it back."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """            self.load_checkpoint(ckpt_path)
        self.model.train()
""", """            self.load_checkpoint(ckpt_path)
""")}
EXPECT = {"trainer": "fail"}
