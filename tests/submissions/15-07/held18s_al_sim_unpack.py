"""Known-wrong simulate (round 18, second pass, not counted; restructured as the text allows): each op is
unpacked as `kind, name, *rest = op` and dispatched by if/elif with no else. ("empty",) raises a ValueError
about unpacking that does not name the op; ("allocate", "x", 4096) is skipped silently. The text: any other op
raises an exception that names it."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ('''    for op in trace:
        if op[0] == "alloc":
            model.malloc(op[1], op[2])
        elif op[0] == "free":
            model.free(op[1])
        elif op[0] == "empty_cache":
            model.empty_cache()
        else:
            raise ValueError(f"unknown op {op!r}")
''',
     '''    for op in trace:
        if tuple(op) == ("empty_cache",):
            model.empty_cache()
        else:
            kind, name, *rest = op
            if kind == "alloc":
                model.malloc(name, rest[0])
            elif kind == "free":
                model.free(name)
'''))}
EXPECT = {"allocator_model": "fail"}
