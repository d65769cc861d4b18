"""Round 24: per_sample_grads adds the batch dimension back to y only when y[i] is 0-dim ("a class label");
a target row with dimensions of its own goes to loss_fn as it is. For MSE the broadcast hides it; for a loss
that reads y's batch dimension (cross-entropy with soft labels y of shape (N, C)) loss_fn(out (1, C), y[i] (C,))
fails or means something else. The text: "loss_fn(out, y) takes a batch" and "row i is the gradient of
loss_fn(model(x[i:i+1]), y[i:i+1])"; wrong input: y of shape (N, C) soft labels with F.cross_entropy."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "        return loss_fn(out, yi.unsqueeze(0))",
    "        return loss_fn(out, yi.unsqueeze(0) if yi.dim() == 0 else yi)"))}
