"""Held-out round 26 (issue 39): prepare_lazy only dry-runs when some *parameter* is still an
UninitializedParameter (the test the visible checks use), to save the forward pass on a model that is
already materialised. A lazy layer without parameters but with lazy buffers is missed: for
`nn.Sequential(nn.Conv2d(1, 4, 3), nn.LazyBatchNorm2d(affine=False))` no dry run happens, and after
prepare_lazy the running_mean/running_var are still UninitializedBuffer. Contradicts: "dry-runs it on
`example`" (the dry run is what materialises the model)."""
from course.grading.class_run.submissions import edited

CELLS = {
    "lazy_impl": edited(
        "15-03", "lazy_impl",
        ("        with torch.no_grad():\n            model(example)",
         "        if any(isinstance(p, nn.parameter.UninitializedParameter) for p in model.parameters()):\n"
         "            with torch.no_grad():\n                model(example)"),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "fail", "trace": "pass"}
