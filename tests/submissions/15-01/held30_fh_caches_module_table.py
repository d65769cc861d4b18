"""Wrong (held-out round 30): the name -> module table (dict(model.named_modules())) is cached per model (by
id(model)) in a module-level dict, so a second call on the same model reuses the table of the first. The text
says capture_activations(model, names, x) maps each requested name "(as in model.named_modules())" to that
submodule's output and raises KeyError for a name the model does not have. Goes wrong when the model changes
between two calls: model = nn.Sequential(nn.Linear(4, 4), nn.ReLU()); capture(model, ["1"], x); model[1] =
nn.Tanh(); capture(model, ["1"], x) hooks the old ReLU, which never runs, and returns {} (no '1') instead of
{'1': tanh(...)}; a submodule added after the first call (model.add_module("extra", ...)) raises KeyError."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": "_MODULE_TABLES = {}\n\n\n" + edited("15-01", "capture_impl", (
    "    modules = dict(model.named_modules())\n",
    "    modules = _MODULE_TABLES.get(id(model))\n"
    "    if modules is None:\n"
    "        modules = _MODULE_TABLES[id(model)] = dict(model.named_modules())\n"))}
