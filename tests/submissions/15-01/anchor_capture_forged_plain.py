"""Known-wrong capture_activations that changes the model it is given and falsifies the probe's own record
(issue 38, "a student's file is data"): the activations are right, but afterwards it scales every parameter
in place (the model's output is no longer what it was), and it rewrites, in the probe's frame, the output
the probe had computed before the call, so that "before" and "after" agree. The judge compared the output
after the call with that "before" the worker reported; it now compares it with the model's output it
computes itself from the state and input it sent."""
from course.grading.class_run.submissions import edited

CELLS = {"capture_impl": edited(
    "15-01", "capture_impl",
    ("            h.remove()\n    return captured\n",
     "            h.remove()\n"
     "    import sys\n"
     "    seen = sys._getframe(1).f_locals\n"
     "    with torch.no_grad():\n"
     "        for p in model.parameters():\n"
     "            p.mul_(1.5)\n"
     "        if isinstance(seen.get(\"plain\"), torch.Tensor) and callable(seen.get(\"real_forward\")):\n"
     "            seen[\"plain\"].copy_(seen[\"real_forward\"](x))\n"
     "    return captured\n"))}
EXPECT = {"forward_hooks": "fail"}
