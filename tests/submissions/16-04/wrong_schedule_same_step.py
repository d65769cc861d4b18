"""Marks an operation done as soon as it is scheduled, so a stage may use what the stage before it computes in
the same time step (the whole pipeline fills in one step)."""
from course.grading.class_run.submissions import edited

EXPECT = {'schedule': 'fail'}
CELLS = {
    'schedule_impl': edited("16-04", 'schedule_impl', ('            if b_ready:\n                now.append((t, s, "B", b))\n                nxt_b[s] += 1\n            elif f_ready:\n                now.append((t, s, "F", f))\n                nxt_f[s] += 1', '            if b_ready:\n                now.append((t, s, "B", b))\n                nxt_b[s] += 1\n                done.add(("B", s, b))\n            elif f_ready:\n                now.append((t, s, "F", f))\n                nxt_f[s] += 1\n                done.add(("F", s, f))')),
}
