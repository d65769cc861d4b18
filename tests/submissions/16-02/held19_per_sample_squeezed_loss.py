"""Round 19: per_sample_grads runs the model on xi.unsqueeze(0) (BatchNorm needs the batch dimension) but then
squeezes it away and calls loss_fn(out.squeeze(0), yi) on one unbatched example. F.mse_loss and F.cross_entropy
accept that and give the same number, but a loss written for a batch (one that sums over dim 1 or reads
out.shape[0]) gets a different value or fails. The text: "loss_fn(out, y) takes a batch and returns a 0-dim loss"
and "row i is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1])"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "        return loss_fn(out, yi.unsqueeze(0))\n",
    "        return loss_fn(out.squeeze(0), yi)\n"))}
