"""Held-out round 13 (issue 39): the model keys its tensors by str(name), so tensors named 0 and '0'
(or 1 and '1') are one tensor to it: allocating '0' while 0 lives overwrites 0's entry and freeing 0 later
frees '0''s block. Breaks: "each block either free or owned by a named tensor" / "free(name): free the
block" (names are any hashable: '', 0, 't2' ...)."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited("15-07", "allocator_impl",
    ("            self.where[name] = None\n", "            self.where[str(name)] = None\n"),
    ("        self.where[name] = (seg, blk)", "        self.where[str(name)] = (seg, blk)"),
    ("        entry = self.where.pop(name)", "        entry = self.where.pop(str(name))"))}
EXPECT = {"allocator_model": "fail"}
