"""Held-out round 25: export_dynamic_batch first runs the model once on `example` as a sanity check, carefully: under
`torch.no_grad()`, in eval mode (so BatchNorm's running statistics do not move), then puts every submodule back in
its own mode. Exercise 3: "Do not run `model` before exporting it: its parameters and buffers ... stay as they were
given." Wrong on a model whose forward updates a buffer in every mode (e.g. a call counter `self.calls += 1`, or an
exponential average kept in eval mode too): the caller's buffer has changed after the call, while export itself
(fake tensors) leaves it as it was."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    batch = Dim(\"batch\", min=min_batch, max=max_batch)\n",
     "    modes = {m: m.training for m in model.modules()}\n"
     "    model.eval()  # a sanity run that cannot move BatchNorm statistics\n"
     "    with torch.no_grad():\n"
     "        model(example)\n"
     "    for m, training in modes.items():\n"
     "        m.training = training\n"
     "    batch = Dim(\"batch\", min=min_batch, max=max_batch)\n"))}
