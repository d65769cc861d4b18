"""Callback states are stored in a dict keyed by class name: with two callbacks of one kind, the second
one's state overwrites the first's, and both are restored from it."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("resume_impl",
                    """        "callbacks": [cb.state_dict() if hasattr(cb, "state_dict") else None for cb in trainer.callbacks],""",
                    """        "callbacks": {type(cb).__name__: cb.state_dict() for cb in trainer.callbacks if hasattr(cb, "state_dict")},""")
_src = _src.replace("""    for cb, state in zip(trainer.callbacks, ckpt.get("callbacks") or []):
        if state is not None and hasattr(cb, "load_state_dict"):
            cb.load_state_dict(state)""", """    for cb in trainer.callbacks:
        state = (ckpt.get("callbacks") or {}).get(type(cb).__name__)
        if state is not None and hasattr(cb, "load_state_dict"):
            cb.load_state_dict(state)""", 1)
CELLS = {"resume_impl": _src}
EXPECT = {"resume": "fail"}
