"""Held-out round 8, wrong: per_sample_grads casts x to the dtype of the model's first parameter "to match
the model", which turns the integer token ids of an nn.Embedding model into floats it cannot index with.
Breaks "model is an nn.Module ... x has shape (N, ...)": x is the model's input as the model takes it, of
any dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    buffers = {k: b.detach() for k, b in model.named_buffers()}\n",
    "    buffers = {k: b.detach() for k, b in model.named_buffers()}\n"
    "    x = x.to(next(model.parameters()).dtype)\n"))}
