"""Unusual but correct (blind batch, issue #19, fourth round, engine):
every Value takes a number from a module-level counter when it is made, and backward() orders the Values
behind the output by that number, largest first, instead of walking them depth-first. An operand always
exists before the result made from it, so creation order is a topological order; this keeps any check from
requiring one particular walk (or forbidding state kept outside the Values).
"""
from course.grading.class_run.submissions import edited

EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}
CELLS = {"engine_impl": edited("00-02", "engine_impl",
    ("class Value:\n", "import itertools\n\n_VALUE_COUNTER = itertools.count()\n\n\nclass Value:\n"),
    ("self._rule = _rule  # grad_out -> one gradient per parent",
     "self._rule = _rule  # grad_out -> one gradient per parent\n        self._n = next(_VALUE_COUNTER)"),
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
""", """        found, todo = {id(self): self}, [self]
        while todo:
            for p in todo.pop()._parents:
                if id(p) not in found:
                    found[id(p)] = p
                    todo.append(p)
        order = sorted(found.values(), key=lambda v: v._n)
"""))}
