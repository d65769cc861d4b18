"""Round 24: ensemble_forward stacks the models' `state_dict()`s by hand instead of calling
stack_module_state ("a state dict is all parameters and buffers"). It is not: a buffer registered with
persistent=False (a rotary/positional table, a fixed mask) is not in the state dict, so functional_call takes
it from the meta skeleton (an error), and tied weights appear under both names. The text: "Write
ensemble_forward ... with torch.func.stack_module_state" and "models is a non-empty list of modules of one
architecture (the same class, parameter and buffer names and shapes ...)"; wrong input: models with a
non-persistent buffer."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    params, buffers = stack_module_state(models)\n",
    "    states = [m.state_dict() for m in models]\n"
    "    params = {k: torch.stack([s[k] for s in states]) for k in states[0]}\n"
    "    buffers = {}\n"))}
