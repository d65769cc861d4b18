"""bubble_fraction ignores the schedule's slots and returns the closed form (S - 1) / (M + S - 1), with M
read off the largest micro-batch index: right for GPipe and 1F1B, wrong for any other list. Breaks:
"`bubble_fraction(schedule, S)`: for any list of such tuples (sorted or not), with T = 1 + the largest time
step in it, return the fraction of the S·T (stage, step) slots in which no operation runs".
"""
EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": '''
def _plan(S, M, one_f_one_b):
    when = {}
    next_f, next_b = [0] * S, [0] * S
    ops, t = [], 0
    while len(ops) < 2 * S * M:
        for s in range(S):
            f, b = next_f[s], next_b[s]
            b_needs = ("B", s + 1, b) if s < S - 1 else ("F", s, b)
            can_b = b < M and when.get(b_needs, t) < t
            can_f = f < M and (s == 0 or when.get(("F", s - 1, f), t) < t)
            if one_f_one_b:
                can_f = can_f and f - b < S - s
            else:
                can_b = can_b and f == M
            if can_b:
                op = ("B", b)
                next_b[s] += 1
            elif can_f:
                op = ("F", f)
                next_f[s] += 1
            else:
                continue
            when[(op[0], s, op[1])] = t
            ops.append((t, s, op[0], op[1]))
        t += 1
    return ops


def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    return _plan(S, M, False)


def one_f_one_b_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    return _plan(S, M, True)


def bubble_fraction(schedule: list, S: int) -> float:
    M = 1 + max(op[3] for op in schedule)
    return (S - 1) / (M + S - 1)
'''}
