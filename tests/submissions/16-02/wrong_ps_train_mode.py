"""Switches the model to train() at the end ("back to normal"), though it came in eval mode."""
from course.grading.class_run.submissions import edited

EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)",
    "    out = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)\n    model.train()\n    return out"))}
