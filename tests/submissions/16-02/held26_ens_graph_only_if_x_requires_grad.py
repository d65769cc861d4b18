"""Round 26: ensemble_forward saves memory by building the graph only when the caller can want it: it runs the
vmap under torch.set_grad_enabled(x.requires_grad). With an x that requires grad the result is differentiable
with respect to x as the text asks, but with an ordinary x (the usual case: data) the whole forward runs without
grad, although the models have trainable parameters: the result has requires_grad False where
torch.stack([m(x) for m in models]) has True, and result.sum().backward() raises instead of running. The text:
"Like that stack, the result carries gradients back to x: do not compute it under torch.no_grad()"; wrong
input: any x with requires_grad False and models with a trainable parameter."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n",
    "    with torch.set_grad_enabled(x.requires_grad):\n"
    "        return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n"))}
