"""Correct schedules, written differently: per-stage deques of pending micro-batches, a table of finishing
times (infinity until done), the stages visited from last to first within a step, each policy a small
function that picks "F", "B" or nothing; the in-flight count read off the two queues' lengths, the list
sorted at the end. bubble_fraction collects the distinct busy (step, stage) slots and divides with
fractions.Fraction before converting to float."""
EXPECT = {"schedule": "pass"}
CELLS = {"schedule_impl": '''
import collections
from fractions import Fraction


def _runs(S, M, pick):
    never = float("inf")
    finish = {"F": [[never] * M for _ in range(S)], "B": [[never] * M for _ in range(S)]}
    queues = {"F": [collections.deque(range(M)) for _ in range(S)],
              "B": [collections.deque(range(M)) for _ in range(S)]}
    timeline, t = [], 0
    while any(queues["B"]):
        for s in reversed(range(S)):
            kind = pick(s, t, queues["F"][s], queues["B"][s], finish, S)
            if kind is None:
                continue
            m = queues[kind][s].popleft()
            finish[kind][s][m] = t
            timeline.append((t, s, kind, m))
        t += 1
    timeline.sort(key=lambda op: (op[0], op[1]))
    return timeline


def _forward_ready(s, t, qf, finish):
    return bool(qf) and (s == 0 or finish["F"][s - 1][qf[0]] < t)


def _backward_ready(s, t, qb, finish, S):
    if not qb:
        return False
    before = finish["B"][s + 1][qb[0]] if s + 1 < S else finish["F"][s][qb[0]]
    return before < t


def _gpipe_pick(s, t, qf, qb, finish, S):
    if qf:
        return "F" if _forward_ready(s, t, qf, finish) else None
    return "B" if _backward_ready(s, t, qb, finish, S) else None


def _ofob_pick(s, t, qf, qb, finish, S):
    if _backward_ready(s, t, qb, finish, S):
        return "B"
    in_flight = len(qb) - len(qf)
    if in_flight < S - s and _forward_ready(s, t, qf, finish):
        return "F"
    return None


def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    return _runs(S, M, _gpipe_pick)


def one_f_one_b_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    return _runs(S, M, _ofob_pick)


def bubble_fraction(schedule: list, S: int) -> float:
    slots = {(int(op[0]), int(op[1])) for op in schedule}
    T = 1 + max(step for step, _ in slots)
    return float(Fraction(S * T - len(slots), S * T))
'''}
