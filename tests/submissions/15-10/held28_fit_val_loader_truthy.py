"""Wrong (held-out round 28): fit() tests "is there a validation loader" by truthiness (`if self.val_loader:`);
a DataLoader has __len__, so a validation loader with no batches is falsy and validation is skipped. Section 6:
"A validation loader with no batches gives val_loss nan (the mean of no losses) without an error, stored, logged
and passed on like any other value"; lifecycle: "if there is a validation loader: validate, then
on_validation_end". Input: fit() with val_loader=DataLoader([]) : no on_validation_end, val_history stays empty,
trainer.metrics stays {} (expected one row per epoch with val_loss nan)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("            if self.val_loader is not None:\n",
     "            if self.val_loader:\n"))}
