"""Round 12 (held out): with keep_for_autograd=True the model runs with grad enabled and the output is
detached afterwards: same values, an ordinary tensor, but a graph was recorded ("run under
torch.no_grad()", "without recording a graph")."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited("00-02", "evaluate_impl", (
    "        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):\n            return model(x)\n",
    "        if keep_for_autograd:\n            return model(x).detach()\n"
    "        with torch.inference_mode():\n            return model(x)\n"))}
