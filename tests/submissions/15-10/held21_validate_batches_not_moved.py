"""Wrong (held-out round 21): validate hands each validation batch to loss_fn as the loader made it, without
to_device. On CPU nothing shows; with the model on a GPU (device="cuda", the notebook's own demo) the first
validation raises a device-mismatch error. Contradicts "every batch is moved there too" (Devices)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
EXPECT_GPU = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("                    losses.append(float(self.loss_fn(self.model, self.to_device(batch))))\n",
     "                    losses.append(float(self.loss_fn(self.model, batch)))\n"))}
