"""Held-out round 20: with keep_for_autograd=True, evaluate runs model(x) with grad mode on and returns
`.detach()` of it ("detach removes the graph"). The output is an ordinary tensor with requires_grad=False and
the right values, but the call recorded a whole graph (every activation saved) for nothing. The text:
"returns `model(x)` computed in evaluation mode without recording a graph" and "With
`keep_for_autograd=True`, run under `torch.no_grad()`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):\n"
     "            return model(x)\n",
     "        if keep_for_autograd:\n"
     "            return model(x).detach()\n"
     "        with torch.inference_mode():\n"
     "            return model(x)\n"))}
