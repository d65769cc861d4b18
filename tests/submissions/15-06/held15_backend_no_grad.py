"""Held-out round 15: the recording backend returns a wrapper that runs gm.forward under torch.no_grad() ("a
backend is for inference"). Values are right, but a compiled function's result no longer requires grad, so
loss.backward() through it fails and gradients of its inputs are lost. Breaks: "returns gm.forward so the compiled
function still computes the right values" (what gm.forward returns, autograd graph included)."""
from course.grading.class_run.submissions import edited

EXPECT = {"recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        return gm.forward\n",
     "        def run(*args):\n"
     "            with torch.no_grad():  # inference only\n"
     "                return gm.forward(*args)\n"
     "        return run\n"))}
