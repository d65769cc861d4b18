"""Known-wrong stale_nodes (gap round): reads only the saved attributes it met in the examples
(_saved_self, _saved_other, _saved_result), so a node whose stale tensor is saved under another name
(mm's _saved_mat2, where's _saved_condition, ...) is missed ("reading one of its _saved_... attributes")."""
from course.grading.class_run.submissions import edited

CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
    ("            if attr.startswith(\"_saved_\"):",
     "            if attr in (\"_saved_self\", \"_saved_other\", \"_saved_result\"):"))}
EXPECT = {"stale_nodes": "fail"}
