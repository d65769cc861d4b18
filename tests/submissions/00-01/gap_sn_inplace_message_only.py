"""Known-wrong stale_nodes (gap round): counts a node as stale only when the error says "inplace", so a
saved tensor freed by an earlier backward is missed ("or already freed by an earlier backward without
retain_graph=True")."""
from course.grading.class_run.submissions import edited

CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
    ("                except RuntimeError:\n                    stale.append(type(node).__name__)\n                    break",
     "                except RuntimeError as err:\n                    if \"inplace\" in str(err):\n"
     "                        stale.append(type(node).__name__)\n                        break"))}
EXPECT = {"stale_nodes": "fail"}
