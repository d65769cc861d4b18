"""Wrong (held-out round 30): the history row's "lr" is param_groups[0]["lr"] as it is (only a tensor is turned
into a number with .item()), so an int learning rate is logged as an int. Section 6 ("Logging"): "lr":
optimizer.param_groups[0]["lr"] used for this step, "as a float". Input: SGD(params, lr=1) (or lr=0): every row
logs lr 1 of type int (equal to 1.0, but not a float)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        lr = float(self.optimizer.param_groups[0][\"lr\"])\n",
     "        lr = self.optimizer.param_groups[0][\"lr\"]\n"
     "        lr = lr.item() if isinstance(lr, torch.Tensor) else lr\n"))}
