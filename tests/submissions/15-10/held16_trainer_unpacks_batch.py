"""Known-wrong Trainer (round 16): treats every batch as an (inputs, targets) pair, unpacking it and
handing loss_fn a rebuilt tuple. The text: "loss_fn(model, batch) ... the Trainer never looks inside the
batch", and batches may be "a tensor, or tuples/lists/dicts of tensors": a dict batch reaches loss_fn as
a tuple of its keys, a batch of three tensors raises."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                batch = self.to_device(batch)\n",
    "                inputs, targets = self.to_device(batch)\n                batch = (inputs, targets)\n"))}
EXPECT = {"trainer": "fail"}
