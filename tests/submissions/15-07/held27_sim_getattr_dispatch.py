"""Held-out round 27 (Exercise 2: "`simulate(trace)` (given) runs a trace of ops `("alloc", name, nbytes)`,
`("free", name)` and `("empty_cache",)` ... Any other op raises an exception that names it"): simulate
dispatches an op to the model's method of that name (alloc -> malloc), so a misspelt op raises an
AttributeError naming it, but ops that happen to be method names run instead of raising:
`("malloc", "a", 512)` allocates, `("stats",)` and `("__init__",)` (which empties the model) pass silently."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    '        if op[0] == "alloc":\n'
    "            model.malloc(op[1], op[2])\n"
    '        elif op[0] == "free":\n'
    "            model.free(op[1])\n"
    '        elif op[0] == "empty_cache":\n'
    "            model.empty_cache()\n"
    "        else:\n"
    '            raise ValueError(f"unknown op {op!r}")\n',
    '        method = getattr(model, "malloc" if op[0] == "alloc" else op[0])  # AttributeError names a bad op\n'
    "        method(*op[1:])\n",
))}
