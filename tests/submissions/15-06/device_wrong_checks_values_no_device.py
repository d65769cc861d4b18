"""Wrong: the same value check as device_correct_checks_values (which sends the grader's GPU stand-in to its
CPU form), but the folded conv is built without device=, so on a GPU it lands on the CPU ("parameters ... on
the same device as conv's weight")."""
import runpy
from pathlib import Path

_CORRECT = runpy.run_path(str(Path(__file__).with_name("device_correct_checks_values.py")))["CELLS"]["fold_conv_bn_impl"]
_OLD = "padding_mode=conv.padding_mode, dtype=w.dtype, device=w.device)"
assert _CORRECT.count(_OLD) == 1, "device_correct_checks_values.py changed: edit this twin too"

EXPECT = {'fold_conv_bn': 'fail'}
CELLS = {"fold_conv_bn_impl": _CORRECT.replace(_OLD, "padding_mode=conv.padding_mode, dtype=w.dtype)")}
