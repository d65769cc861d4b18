"""Held-out round 27: `backward()` builds its topological order with a recursive `visit`, copied from the
worked `Scalar` example. Right on every expression of moderate depth, but an expression deeper than Python's
recursion limit (1500 chained `h = h * w`, an unrolled recurrence) raises RecursionError. The text:
"`out.backward()` on a 0-dim `out` adds d(out)/d(leaf) into `.grad` of every leaf `out` depends on"; nothing
limits the depth of the expression."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("""        order, seen = [], set()
        stack = [(self, False)]
        while stack:
            v, expanded = stack.pop()
            if expanded:
                order.append(v)
                continue
            if id(v) in seen:
                continue
            seen.add(id(v))
            stack.append((v, True))
            stack.extend((p, False) for p in v._parents)
""", """        order, seen = [], set()

        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for p in v._parents:
                    visit(p)
                order.append(v)
        visit(self)
"""))}
