"""Held-out round 27 (Exercise 2: "Zero bytes: nothing happens, but remember the name so that `free(name)`
works" and "`free(name)`: free the block"): a 0-byte malloc records nothing and free() looks the name up
without forgetting it, so a name that once held a real block still points at that block. Wrong for
alloc a 512, free a, alloc b 512 (b reuses a's old block), alloc a 0, free a: freeing the 0-byte a frees
b's block (allocated 0 instead of 512)."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "        if nbytes == 0:\n"
    "            self.where[name] = None\n"
    "            return\n",
    "        if nbytes == 0:\n"
    "            return                # nothing happens; free() of an unknown name does nothing\n",
), (
    "        entry = self.where.pop(name)\n",
    "        entry = self.where.get(name)\n",
))}
