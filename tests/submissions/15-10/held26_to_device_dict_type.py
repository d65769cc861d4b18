"""Wrong (held-out round 26): to_device rebuilds a dict with its own type, type(batch)((k, moved) for k, v in
...), "to keep OrderedDicts ordered". That works for dict and OrderedDict, but a defaultdict (a dict; a collate
function that groups fields often builds one) cannot be built from an iterable of pairs: TypeError "first
argument must be callable or None". Section 6: "every batch ... is moved there too, whatever its structure (a
tensor, or tuples/lists/dicts of tensors; leave other values alone)". Input: to_device(defaultdict(list,
x=tensor)) raises instead of returning a dict with the moved tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("            return {k: self.to_device(v) for k, v in batch.items()}\n",
     "            return type(batch)((k, self.to_device(v)) for k, v in batch.items())\n"))}
