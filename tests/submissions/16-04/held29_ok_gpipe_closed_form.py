"""A correct answer written unusually (held-out round 29): gpipe_schedule is written in closed form, without any
simulation: stage s runs F of micro-batch m at step s + m and B of micro-batch m at step (M + S - 1) + (S - 1 - s) + m
(the greedy rule of the text gives exactly these steps: the last stage finishes its forwards at M + S - 2 and the
backwards then flow up one stage per step); the list is sorted by (step, stage) with a key. bubble_fraction counts the
busy slots as S·T minus the idle ones found by walking a boolean grid."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    return _greedy(S, M, one_f_one_b=False)\n",
    "    S, M = int(S), int(M)\n"
    "    ops = [(s + m, s, \"F\", m) for s in range(S) for m in range(M)]\n"
    "    ops += [(M + S - 1 + (S - 1 - s) + m, s, \"B\", m) for s in range(S) for m in range(M)]\n"
    "    ops.sort(key=lambda op: (op[0], op[1]))\n"
    "    return ops\n"), (
    "    T = 1 + max(t for t, _, _, _ in schedule)\n"
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n"
    "    return 1.0 - busy / (S * T)\n",
    "    T = 1 + max(op[0] for op in schedule)\n"
    "    grid = [[False] * T for _ in range(S)]\n"
    "    for t, s, _, _ in schedule:\n"
    "        grid[s][t] = True\n"
    "    idle = sum(row.count(False) for row in grid)\n"
    "    return float(idle / (S * T))\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
