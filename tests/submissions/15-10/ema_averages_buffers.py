"""EMACallback averages the whole state_dict (BatchNorm running statistics too; integer counters copied) and
copy_to loads it with load_state_dict, so the target module's buffers are overwritten by averaged ones."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("callbacks_impl", """        with torch.no_grad():
            weights = [p.detach() for p in trainer.model.parameters()]
            if self.shadow is None:
                self.shadow = [w.clone() for w in weights]
            else:
                for s, w in zip(self.shadow, weights):
                    s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)
""", """        with torch.no_grad():
            weights = [v.detach() for v in trainer.model.state_dict().values()]
            if self.shadow is None:
                self.shadow = [w.clone() for w in weights]
            else:
                for s, w in zip(self.shadow, weights):
                    if s.is_floating_point():
                        s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)
                    else:
                        s.copy_(w)
""")
_old_copy = """        with torch.no_grad():
            for p, s in zip(module.parameters(), self.shadow):
                p.copy_(s)
"""
assert _old_copy in _src
CELLS = {"callbacks_impl": _src.replace(_old_copy, """        module.load_state_dict(dict(zip(module.state_dict().keys(), self.shadow)))
""", 1)}
EXPECT = {"callbacks": "fail"}
