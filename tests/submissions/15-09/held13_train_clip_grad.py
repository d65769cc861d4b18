"""Held-out round 13 (fixed_train, "runs one plain SGD step ... per batch on the cross-entropy of that batch
alone"): a "safety" clip_grad_norm_(max_norm=10) before each step. It changes nothing while the gradient
norm is below 10 (small random batches), and scales the step down when a batch's gradient is larger:
not plain SGD."""
from course.grading.class_run.submissions import edited

EXPECT = {"zoo": "fail"}
BASE = "reference"
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "        step_loss.backward()\n",
    "        step_loss.backward()\n        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=10.0)  # guard against a blow-up\n",
))}
