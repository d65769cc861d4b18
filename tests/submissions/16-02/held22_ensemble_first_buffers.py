"""Round 22: ensemble_forward stacks only the parameters (params, _ = stack_module_state(models)) and runs a
deep copy of models[0] kept on its own device, so functional_call takes every buffer from that copy: each
model runs with models[0]'s BatchNorm running statistics. Right while the models' buffers are equal (fresh
BatchNorms), wrong once they differ. The text: "models ... possibly with BatchNorm buffers" and "the result is
torch.stack([m(x) for m in models])"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    params, buffers = stack_module_state(models)\n    base = copy.deepcopy(models[0]).to(\"meta\")\n\n"
    "    def one(p, b, xb):\n        return functional_call(base, (p, b), (xb,))\n\n"
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)",
    "    params, _ = stack_module_state(models)\n    base = copy.deepcopy(models[0])\n\n"
    "    def one(p, xb):\n        return functional_call(base, p, (xb,))\n\n"
    "    return vmap(one, in_dims=(0, 0 if per_model else None))(params, x)"))}
