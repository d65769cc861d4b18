"""Round 19s (after the contract walk, not counted): ensemble_forward maps over the models with
vmap(..., chunk_size=8): one call of the skeleton per chunk of 8 models, so an ensemble of more than 8 models runs
its forward twice or more. The text: "the number of times a module's forward runs does not grow with the number
of models" (the check compared 2 models with 5, one chunk each)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n",
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None), chunk_size=8)(params, buffers, x)\n"))}
