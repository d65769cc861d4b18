"""Held-out round 27: export_dynamic_batch switches `requires_grad` off on every parameter for the export (a smaller
graph, it thinks) and switches each back afterwards, but not in a `finally`. Exercise 3: "Do not run `model` before
exporting it: its parameters and buffers ... stay as they were given." Right whenever export succeeds; wrong when it
raises (a model with a Python `if` on a tensor value, such as BranchyNet, or a batch range its code does not
support): the caller's parameters are left with `requires_grad=False`, and training it afterwards silently
updates nothing."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
     "    wanted = {p: p.requires_grad for p in model.parameters()}\n"
     "    model.requires_grad_(False)\n"
     "    ep = torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n"
     "    for p, flag in wanted.items():\n"
     "        p.requires_grad_(flag)\n"
     "    return ep\n"))}
