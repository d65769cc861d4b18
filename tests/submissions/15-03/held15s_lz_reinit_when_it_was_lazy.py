"""Held-out round 15 (strengthening): prepare_lazy re-initialises every layer (reset_parameters()) after the dry run
when the model had lazy parameters, "so the new weights use the layers' own init": a model that was fully
materialised keeps its values, but a partly lazy one (a pretrained, frozen stem followed by lazy layers) loses its
stem's weights. Exercise 4's text: "no change ... to the values of parameters that already exist, beyond the
cast"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "fail", "trace": "pass"}
CELLS = {"lazy_impl": edited("15-03", "lazy_impl", (
    "    model.to(device=example.device, dtype=example.dtype)\n",
    "    was_lazy = any(isinstance(p, nn.parameter.UninitializedParameter) for p in model.parameters())\n"
    "    model.to(device=example.device, dtype=example.dtype)\n"), (
    "    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)",
    "    if was_lazy:\n"
    "        for m in model.modules():\n"
    "            if isinstance(m, (nn.Linear, nn.Conv2d)):\n"
    "                m.reset_parameters()\n"
    "    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)"))}
