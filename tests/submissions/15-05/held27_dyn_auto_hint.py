"""Held-out round 27: export_dynamic_batch declares the batch with `Dim.AUTO(min=min_batch, max=max_batch)` instead
of `Dim("batch", min=min_batch, max=max_batch)`. Exercise 3: "exports `model` ... so that dimension 0 of its input is
dynamic and the exported module accepts every batch size from `min_batch` to `max_batch` inclusive"; the section
before it: "every operation must work for *all* sizes in the range (if the code only works for some, export fails
and says which constraint it needed)". With `Dim.AUTO`, export does not fail: on a model whose forward only works
for some sizes (a Python branch on `x.shape[0]`, a `reshape` to the example's batch) it silently narrows or
specialises the batch, and returns a program that rejects sizes inside [min_batch, max_batch]."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    batch = Dim(\"batch\", min=min_batch, max=max_batch)\n",
     "    batch = Dim.AUTO(min=min_batch, max=max_batch)  # export picks what works\n"))}
