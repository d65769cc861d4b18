"""Known-wrong trace_activations that runs the model under torch.no_grad() (the output it returns carries no
graph) and hides it by freezing the model's parameters afterwards (issue 38, "a student's file is data"): the
probe's later plain model(x), the "before" the judge compared requires_grad with, then carries no graph
either. The judge took that plain forward's requires_grad from the worker; it now expects the requires_grad
of model(x) on its own copy of the model, as it was given."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
    ("        output = model(x)\n", "        with torch.no_grad():\n            output = model(x)\n"),
    ("    return output, records", "    for p in model.parameters():\n        p.requires_grad_(False)\n"
                                 "    return output, records"))}
EXPECT = {"trace": "fail"}
