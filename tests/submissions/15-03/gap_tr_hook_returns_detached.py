"""Known-wrong trace_activations (gap round): the hook returns the detached output it measured, and a
forward hook's return value replaces the module's output, so the model's result no longer carries a
graph (loss.backward() on it fails) ("output is what model(x) returned")."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
    ("                            \"std\": out.std().item(), \"finite\": bool(torch.isfinite(out).all())})\n",
     "                            \"std\": out.std().item(), \"finite\": bool(torch.isfinite(out).all())})\n"
     "            return out\n"))}
EXPECT = {"trace": "fail"}
