"""Round 29: ensemble_forward reads "do not compute it under torch.no_grad(), also for an x that does not
require grad" as "always build the graph" and wraps its vmap call in torch.enable_grad(). Under the caller's
torch.no_grad() (inference), torch.stack([m(x) for m in models]) builds no graph and has requires_grad False;
this result has requires_grad True and a grad_fn, keeping every model's activations alive for a backward that
the caller turned off.
The text: "the result is `torch.stack([m(x) for m in models])` ... Like that stack, the result carries gradients
back to x"; wrong input: any call under `with torch.no_grad():` (e.g. 3 models, x of shape (5, 3)):
result.requires_grad is True, the stack's is False."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n",
    "    with torch.enable_grad():\n"
    "        return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n"))}
