"""Held-out round 13: the `break` sits one level too far out, so only the first `_saved_...` attribute (in
dir() order) of each node is read: a MulBackward0 whose `_saved_self` was overwritten but whose
`_saved_other` is fresh is missed. The text: "A node is stale when reading one of its `_saved_...`
attributes raises RuntimeError"."""
from course.grading.class_run.submissions import edited

EXPECT = {"stale_nodes": "fail"}
CELLS = {"stale_nodes_impl": edited(
    "00-01", "stale_nodes_impl",
    ("                    stale.append(type(node).__name__)\n                    break",
     "                    stale.append(type(node).__name__)\n                break  # one saved tensor is enough"))}
