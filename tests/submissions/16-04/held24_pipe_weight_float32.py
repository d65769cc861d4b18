"""Known-wrong pipeline_grads (held-out round 24): rank 1 weights each micro-batch's loss by a 0-d tensor
torch.tensor(rows / N, device=...), made in the default dtype float32, so the weight is rounded to float32 before it
multiplies a float64 loss. The text says "Weight micro-batch m's loss by its number of rows over the batch's, so that
after the call the .grad of every parameter of stage on each rank equals the gradient of loss_fn(stage1(stage0(x)),
y) for the unsplit model" (and the stages may be float64). Input on which it goes wrong: a float64 model with 7 rows
in 3 micro-batches (weights 3/7 and 2/7, not float32 numbers): every gradient is off by about 1e-8 relative,
a million times float64's rounding."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            kept[m] = (h, loss_fn(stage(h), chunks[m]) * (len(chunks[m]) / total))\n",
    "            weight = torch.tensor(len(chunks[m]) / total, device=h.device)\n"
    "            kept[m] = (h, loss_fn(stage(h), chunks[m]) * weight)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
