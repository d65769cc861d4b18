"""Wrong (held-out round 28): runs the model under `torch.inference_mode()` ("we only read activations"). The
captured tensors are then inference tensors, not `output.detach()`: they have the right values and
requires_grad False, but a caller who uses one in autograd, e.g. `(acts["1"] * w).sum().backward()` with w
requiring grad, gets "RuntimeError: Inference tensors cannot be saved for backward", and an in-place change of
one outside inference mode raises; a model that needs autograd inside its forward also breaks. The text:
"runs `model(x)` once and returns a dict mapping each requested submodule name ... to that submodule's output,
detached". Goes wrong on capture_activations(net, ["1"], x) followed by (acts["1"] * w).sum().backward()."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    "        model(x)\n",
    "        with torch.inference_mode():  # we only read activations\n            model(x)\n"))}
