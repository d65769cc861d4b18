"""Held-out round 25: export_dynamic_batch exports on a fresh example of min_batch random images
(`torch.rand((min_batch,) + example.shape[1:])`, "a size inside the range, and values do not matter to fake
tensors") instead of on `example`. The fresh tensor is float32 whatever `example` is. Exercise 3: "exports `model`
... on `example`" (any module whose forward takes one tensor). Wrong on a model in float64 (or float16) with an
example of that dtype: the export fails (Linear's float64 weight against a float32 input)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"export_dynamic_impl": edited(
    "15-05", "export_dynamic_impl",
    ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
     "    probe = torch.rand((min_batch,) + tuple(example.shape[1:]))  # values do not matter to fake tensors\n"
     "    return torch.export.export(model, (probe,), dynamic_shapes=({0: batch},))\n"))}
