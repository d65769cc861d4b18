"""Held-out round 25: export_dynamic_batch first moves the example to the model's device,
`example.to(next(model.parameters()).device)` ("export where the weights are"). Exercise 3: `model` is "a module
whose `forward` takes one tensor" (any such module). Wrong on a module without parameters (e.g.
`nn.Sequential(nn.Flatten(), nn.ReLU())`, or one holding only buffers): `next()` raises StopIteration instead of
returning the program."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
     "    example = example.to(next(model.parameters()).device)  # export where the weights are\n"
     "    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n"))}
