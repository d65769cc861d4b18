"""Held-out gap round 8 (wrong): breaks "Count a node when its target is a `torch._ops.OpOverload` or a
`torch._ops.HigherOrderOperator`": operator nodes are recognised by their name starting with "aten." (plus the
higher-order operators), so an OpOverload from any other namespace (a custom operator registered with
torch.library, say "mylib.scale.default") is left out of the count and out of unsupported_ops."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"op_inventory_impl": _C["edit"](
    _C["OPS"], "isinstance(\n                    node.target, (torch._ops.OpOverload, torch._ops.HigherOrderOperator)):",
    "(\n                    str(node.target).startswith(\"aten.\")\n"
    "                    or isinstance(node.target, torch._ops.HigherOrderOperator)):")}
EXPECT = {"op_inventory": "fail"}
