"""Held-out round 12 (issue 39): trace_activations puts the model in eval mode for the traced run (so
that "the statistics are deterministic") and restores every module's mode afterwards. For a model in
training mode with Dropout or BatchNorm, the output and the records are those of eval mode, and the
BatchNorm running statistics are not updated as model(x) would. Breaks: "runs model(x) once ... `output`
is what model(x) returned"."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
                              ("        output = model(x)\n",
                               "        modes = {m: m.training for m in model.modules()}\n"
                               "        model.eval()\n"
                               "        try:\n"
                               "            output = model(x)\n"
                               "        finally:\n"
                               "            for m, mode in modes.items():\n"
                               "                m.training = mode\n"))}
EXPECT = {"trace": "fail"}
