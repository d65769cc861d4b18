"""Round 16: per_sample_grads feeds each example to the model as xi.reshape(1, -1), a "batch of one row": right
for an MLP on (N, features), wrong for x of shape (N, C, L) or (N, C, H, W) (a Conv model), whose examples lose
their channel dimension ("x has shape (N, ...)"; row i is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1]))."""
from course.grading.class_run.submissions import edited

EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "(xi.unsqueeze(0),)",
    "(xi.reshape(1, -1),)"))}
