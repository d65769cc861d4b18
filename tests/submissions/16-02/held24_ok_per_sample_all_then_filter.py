"""Round 24, correct but unusual: per_sample_grads differentiates with respect to every parameter (frozen ones
included, all detached copies) and drops the frozen entries from the result. The extra gradients cost work but
change nothing: the result has one entry per parameter that requires grad, the rows are right, and the model
(values, requires_grad, buffers, .grad, mode) is untouched."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}\n"
    "    frozen = {k: p.detach() for k, p in model.named_parameters() if not p.requires_grad}\n",
    "    params = {k: p.detach() for k, p in model.named_parameters()}\n"
    "    frozen = {}\n"
    "    trainable = [k for k, p in model.named_parameters() if p.requires_grad]\n"), (
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)",
    "    grads = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)\n"
    "    return {k: grads[k] for k in trainable}"))}
