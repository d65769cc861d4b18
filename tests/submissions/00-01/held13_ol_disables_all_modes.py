"""Held-out round 13: OpLogger runs each call under _disable_current_modes() "to be sure the inner call is not
seen again", which also switches off every *outer* mode: an OpLogger (or a FlopCounterMode) around the block
records nothing of what runs inside an inner OpLogger. The text: "records the aten operators run inside the
block", "for every call that reaches __torch_dispatch__", and "Run every call unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited(
    "00-01", "op_logger_impl",
    ("out = func(*args, **(kwargs or {}))",
     "from torch.utils._python_dispatch import _disable_current_modes\n"
     "        with _disable_current_modes():\n"
     "            out = func(*args, **(kwargs or {}))"))}
