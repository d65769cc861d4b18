"""Round 19s (after the contract walk, not counted): per_sample_grads bounds its memory with
vmap(..., chunk_size=8), a documented torch.func option: vmap then calls the function once per chunk of 8
examples, so the model runs once for N <= 8 and ceil(N / 8) times beyond. The text: "the number of times `model`
is called does not grow with `N`" (the check compared N = 2 with N = 6, one chunk each)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)\n",
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0), chunk_size=8)(params, x, y)\n"))}
