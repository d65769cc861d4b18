"""one_f_one_b_schedule returns the right operations grouped stage by stage (all of stage 0, then stage 1,
...), not in time order. Breaks: "returns a list of tuples `(t, s, kind, m)` ..., sorted by time step, then
stage."
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
    ops = _plan(S, M, True)
    return [op for s in range(S) for op in ops if op[1] == s]


def bubble_fraction(schedule: list, S: int) -> float:
    T = 1 + max(t for t, *_ in schedule)
    busy = len({(t, s) for t, s, _, _ in schedule})
    return float(1 - busy / (S * T))
'''}
