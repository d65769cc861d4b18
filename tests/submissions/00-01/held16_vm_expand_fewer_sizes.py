"""Round 16 held-out: view_meta's expand never checks that there are at least as many sizes as
dimensions; fewer sizes silently line up with the last dimensions and drop the leading ones (the
text: "Raise RuntimeError ... an expand that ... has fewer sizes than dimensions")."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    """        if extra < 0:
            raise RuntimeError("expand: fewer sizes than dimensions")
""", ""))}
