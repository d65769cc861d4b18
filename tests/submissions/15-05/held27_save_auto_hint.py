"""Held-out round 27: save_exported declares the batch with `Dim.AUTO(min=1, max=1024)` instead of
`Dim("batch", min=1, max=1024)`. Exercise 5: "export `model` ... on `example` with a dynamic batch dimension
(dimension 0) that accepts every batch size from 1 to 1024, and write it". With `Dim.AUTO` export never fails: on a
model whose forward only works for some batch sizes (a Python branch on `x.shape[0]`, a reshape to the example's
batch) it silently specialises or narrows the batch and writes a file that rejects batch sizes in 1..1024, where
`Dim` makes export raise and say which constraint the code needs."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": edited(
    "15-05", "save_load_impl",
    ("    batch = Dim(\"batch\", min=1, max=1024)\n",
     "    batch = Dim.AUTO(min=1, max=1024)  # export picks what works\n"))}
