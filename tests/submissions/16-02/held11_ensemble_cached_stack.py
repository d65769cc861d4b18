"""Held-out round 11: ensemble_forward stacks the models' state once per list of models (a cache keyed by the
models' ids, the models kept alive in it) and reuses the stacked copies on later calls. stack_module_state
copies the tensors, so after an optimizer step on the models (or load_state_dict) the next call still runs
the old weights. The text says the result "is torch.stack([m(x) for m in models])", the models as they are at
the call."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited(
    "16-02", "ensemble_impl",
    ("    params, buffers = stack_module_state(models)\n    base = copy.deepcopy(models[0]).to(\"meta\")",
     "    cache = ensemble_forward.__dict__.setdefault(\"stacks\", {})\n"
     "    key = tuple(id(m) for m in models)\n"
     "    if key not in cache:  # the models are kept in the cache, so their ids are not reused\n"
     "        cache[key] = (list(models), *stack_module_state(models), copy.deepcopy(models[0]).to(\"meta\"))\n"
     "    _, params, buffers, base = cache[key]"))}
