"""Round 19: ensemble_forward keeps the meta-device skeleton across calls, in a dict keyed by what the text calls
one architecture (the class and the parameter and buffer names and shapes), to save the deepcopy. A later call on
other models with the same names and shapes but other modules between them (ReLU instead of Tanh, another
BatchNorm eps, another activation) runs the first ensemble's skeleton. The text: "the result is
torch.stack([m(x) for m in models])" (of these models, not of ones seen before)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    base = copy.deepcopy(models[0]).to(\"meta\")\n",
    "    key = (type(models[0]), tuple((k, tuple(v.shape)) for k, v in models[0].state_dict().items()))\n"
    "    cache = ensemble_forward.__dict__.setdefault(\"skeletons\", {})\n"
    "    if key not in cache:\n        cache[key] = copy.deepcopy(models[0]).to(\"meta\")\n"
    "    base = cache[key]\n"))}
