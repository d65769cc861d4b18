"""Held-out round 25: update() counts the batch with torch.bincount on the logits' device and adds that to
a confusion matrix built on the CPU in reset() (the reference moves the predictions to the CPU first). On
CPU inputs this is exact; on logits and targets on a GPU, `cpu_matrix += cuda_counts` raises (tensors on
different devices), so the notebook's own demo (`evaluate(model, loader, DEVICE)`) crashes. The text:
"update(loss, logits, targets) ... Predictions are logits.argmax(dim=1)" with the demo's GPU logits, and the
setup "Runs on CPU or GPU"; no check title named a device for RunningMetrics. On the CPU the answer is right,
so every CPU check passes (the meta stand-in cannot tell: bincount needs values there) and only the GPU-marked
test_logits_on_the_gpu (make test-gpu) can catch it."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
EXPECT_GPU = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("            pred = logits.argmax(dim=1).cpu()\n"
     "            pairs = targets.cpu().long() * c + pred\n",
     "            pred = logits.argmax(dim=1)\n"
     "            pairs = targets.long() * c + pred\n"))}
