"""Held-out round 28: export_dynamic_batch creates its `Dim` once, on the first call, and keeps it on the function
(`export_dynamic_batch.batch`) for the later calls. Exercise 3: "exports `model` ... so that ... the exported module
accepts every batch size from `min_batch` to `max_batch` inclusive and rejects sizes outside that range". Right on
the first call; wrong on every later call with another range, e.g. (3, 20) then (4, 9): the second program accepts
3 and 10 to 20, and a later range wider than the first rejects sizes it must accept."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    batch = Dim(\"batch\", min=min_batch, max=max_batch)\n"
     "    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
     "    if not hasattr(export_dynamic_batch, \"batch\"):\n"
     "        export_dynamic_batch.batch = Dim(\"batch\", min=min_batch, max=max_batch)\n"
     "    return torch.export.export(model, (example,), dynamic_shapes=({0: export_dynamic_batch.batch},))\n"))}
