"""Held-out round 25: save_exported exports on `torch.zeros(2, *example.shape[1:])` ("torch.export specialises a
dimension of size 1, so export on a batch of 2") instead of on `example`. The zeros are float32 whatever `example`
is. Exercise 5: "export `model` ... on `example` with a dynamic batch dimension". Wrong on a model in float64 with a
float64 example: the export fails (float64 weights against a float32 input), no file is written."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {"save_load_impl": edited(
    "15-05", "save_load_impl",
    ("    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)\n",
     "    example = torch.zeros(2, *example.shape[1:])  # a batch of 2: export specialises size 1\n"
     "    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)\n"))}
