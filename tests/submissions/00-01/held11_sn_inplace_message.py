"""Held-out round 11: stale_nodes counts a node only when the RuntimeError raised by reading its saved tensor
mentions an "inplace" write; a saved tensor freed by an earlier backward (without retain_graph=True) raises
"Trying to backward through the graph a second time (or directly access saved tensors after they have
already been freed)" and is skipped, so stale_nodes(out) after out.sum().backward() answers [] although a
second backward fails. The text: "(or already freed by an earlier backward)", "a saved tensor modified in
place, or one freed by an earlier backward without retain_graph=True", and "The list is empty exactly when
out.sum().backward() would succeed"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
                                    ("                except RuntimeError:\n"
                                     "                    stale.append(type(node).__name__)\n"
                                     "                    break\n",
                                     "                except RuntimeError as err:\n"
                                     "                    if \"inplace\" in str(err):\n"
                                     "                        stale.append(type(node).__name__)\n"
                                     "                        break\n"))}
