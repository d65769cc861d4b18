"""Held-out round 27: aten_ops memoises its result by `id(ep)` (unsupported_ops calls it once per check of a
runtime, so it caches), returning a copy of the cached dict. Exercise 4: "`aten_ops(ep)` returns a `dict` mapping
the name ... of every operator the program calls to the number of `call_function` nodes that call it." An `id` is
only unique among objects alive at the same time: once a program is garbage-collected, the next ExportedProgram
often gets the same id, and this answer returns the first program's operators for the second one (e.g. two models
exported and inspected one after the other in a loop); and a program edited in place between two calls (a rewriting
pass) keeps its id, so the second call returns the count from before the edit."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "fail",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": edited(
    "15-05", "op_inventory_impl",
    ("    counts = Counter()\n",
     "    cache = aten_ops.__dict__.setdefault(\"cache\", {})\n"
     "    if id(ep) in cache:\n"
     "        return dict(cache[id(ep)])\n"
     "    counts = Counter()\n"),
    ("    return dict(counts)\n",
     "    cache[id(ep)] = dict(counts)\n"
     "    return dict(counts)\n"))}
