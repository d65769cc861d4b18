"""Held-out round 28: save_exported declares the batch as `Dim("batch", min=2, max=1024)` ("size 1 is specialised
anyway"). Exercise 5: "export `model` ... with a dynamic batch dimension (dimension 0) that accepts every batch size
from 1 to 1024". Wrong on a batch of one image in the fresh process: the loaded program rejects it."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": edited(
    "15-05", "save_load_impl",
    ("    batch = Dim(\"batch\", min=1, max=1024)\n", "    batch = Dim(\"batch\", min=2, max=1024)\n"))}
