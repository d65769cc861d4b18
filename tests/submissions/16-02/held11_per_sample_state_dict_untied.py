"""Held-out round 11: per_sample_grads takes the trainable tensors from model.state_dict(keep_vars=True) and,
since functional_call refuses two values for tied names, calls it with tie_weights=False. For a model with
tied weights (an embedding shared with the output layer) the result has an entry for each name of the shared
parameter (state_dict names, not named_parameters() names), and each holds only the part of the gradient that
flows through that one use. The text says "one entry per parameter that requires grad (named_parameters()
names ...)" and "row i is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1]) with respect to that
parameter"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited(
    "16-02", "per_sample_impl",
    ("params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}",
     "params = {k: p.detach() for k, p in model.state_dict(keep_vars=True).items() if p.requires_grad}"),
    ("functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))",
     "functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),), tie_weights=False)"))}
