"""Wrong (held-out round 30): Trainer.to_device recurses into every collections.abc.Sequence, not only
tuples and lists. Section 6 ("Devices"): batches are tensors or tuples/lists/dicts of tensors, "leave other
values alone". A str is a Sequence whose items are 1-character strs (each a Sequence of itself), so a batch
holding a string (file names, captions: (x, y, ["a.png", "b.png"]) or {"x": x, "name": "a"}) ends in a
RecursionError instead of coming back unchanged."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if isinstance(batch, (list, tuple)):\n            moved = [self.to_device(v) for v in batch]\n",
     "        import collections.abc\n"
     "        if isinstance(batch, collections.abc.Sequence):\n"
     "            moved = [self.to_device(v) for v in batch]\n"))}
