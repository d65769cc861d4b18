"""Wrong (held-out round 21): to_device rebuilds every list or tuple with type(batch)(generator). For a list and
a plain tuple that is right; for a namedtuple batch (a tuple subclass, common in datasets that name their
fields) type(batch)(generator) raises TypeError (a namedtuple takes its fields as separate arguments), so the
run stops at the first batch. Contradicts "every batch is moved there too, whatever its structure (a tensor, or
tuples/lists/dicts of tensors ...)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("            moved = [self.to_device(v) for v in batch]\n"
     "            return type(batch)(moved) if isinstance(batch, list) else tuple(moved)\n",
     "            return type(batch)(self.to_device(v) for v in batch)\n"))}
