"""Calls the model on a single example without putting back its batch dimension."""
from course.grading.class_run.submissions import edited

EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n        return loss_fn(out, yi.unsqueeze(0))",
    "functional_call(model, (params, frozen, buffers), (xi,))\n        return loss_fn(out, yi)"))}
