"""Held-out round 23: evaluate always runs the model under `torch.inference_mode()` (the faster mode) and, for
`keep_for_autograd=True`, returns a clone made outside it, which is an ordinary tensor with the same values. The
output passes every test of what it is, but the model did not run under `no_grad`: its forward ran in inference
mode, where a layer that keeps a tensor of its own (a cache, a running statistic written in place) makes
inference tensors that fail later outside it. The text: "With `keep_for_autograd=True`, run under
`torch.no_grad()`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):\n"
     "            return model(x)\n",
     "        with torch.inference_mode():\n"
     "            out = model(x)\n"
     "        return out.clone() if keep_for_autograd else out\n"))}
