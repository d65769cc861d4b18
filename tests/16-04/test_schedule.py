"""Hidden checks of gpipe_schedule, one_f_one_b_schedule and bubble_fraction (exercise 5): the judge builds
each schedule itself from the rules of the text and checks the student's against those rules."""
import json
import random

import pytest
import torch

from course.judge.expect import expect, fail

pytestmark = pytest.mark.task("schedule")

# (S, M): one stage, one micro-batch, fewer micro-batches than stages, M a multiple of S and not
SHAPES = [(1, 1), (1, 3), (2, 1), (3, 2), (4, 4), (4, 8), (3, 7), (5, 2)]


def judge_schedule(S, M, kind):
    """The judge's own schedule: time steps one by one; an op is ready when its input finished earlier."""
    finished = {}  # (kind, stage, mb) -> time step
    f_next, b_next = [0] * S, [0] * S
    ops, t = [], 0
    while len(ops) < 2 * S * M:
        picks = []
        for s in range(S):
            f, b = f_next[s], b_next[s]
            need_b = ("F", s, b) if s == S - 1 else ("B", s + 1, b)
            can_b = b < M and finished.get(need_b, t) < t
            can_f = f < M and (s == 0 or finished.get(("F", s - 1, f), t) < t)
            if kind == "gpipe":
                pick = "F" if can_f else ("B" if f == M and can_b else None)
            else:
                pick = "B" if can_b else ("F" if can_f and f - b < S - s else None)
            if pick:
                picks.append((t, s, pick, f if pick == "F" else b))
        for _, s, k, m in picks:
            finished[(k, s, m)] = t
            if k == "F":
                f_next[s] += 1
            else:
                b_next[s] += 1
        ops += picks
        t += 1
        if t > 10 * (S + M) + 10:
            raise RuntimeError("judge schedule did not finish")
    return ops


def _get(student, fn, S, M, again=False):
    what = f"{fn}({S}, {M})"
    if again:
        what += (" called a second time, after the caller had reversed the list the first call returned and dropped "
                 "its last item")
    res = student.call("schedule_call", fn=fn, S=S, M=M, **({"again": True} if again else {}))
    if res["error"]:
        fail(f"{what} raised {res['error']['type']}: {res['error']['message']}")
    expect(res["kind"] == "list", f"{what} returned a {res['kind']}, expected a list")
    ops = []
    try:  # what the worker sent is the submission's: a reply it tampered with is its failure
        items = json.loads(res["items"]) if isinstance(res["items"], str) else None
    except (ValueError, RecursionError):
        items = None
    if not isinstance(items, list) or not all(isinstance(i, dict) and "kind" in i and isinstance(i.get("parts"), list)
                                              and all(isinstance(p, list) and len(p) == 2 for p in i["parts"])
                                              for i in items):
        fail(f"{what}: the reply from your notebook's process could not be read as a list of items")
    for i, item in enumerate(items):
        expect(item["kind"] == "tuple" and len(item["parts"]) == 4,
               f"{what}: item {i} is a {item['kind']} of {len(item['parts'])} parts, expected a tuple (t, s, kind, m)")
        types = [p[0] for p in item["parts"]]
        expect(types == ["int", "int", "str", "int"],
               f"{what}: item {i} has parts of types {types}, expected (int, int, str, int) (Python ints and a "
               f"one-letter string)")
        ops.append(tuple(p[1] for p in item["parts"]))
    expect(res["length"] == len(ops), f"{what} returned {res['length']} items, far more than 2·S·M = {2 * S * M}")
    return ops, what


def _valid(ops, S, M, what):
    """Every F and B of every stage and micro-batch once, the dependencies, one op per stage per step."""
    when = {}
    for t, s, k, m in ops:
        expect(k in ("F", "B") and 0 <= s < S and 0 <= m < M and t >= 0,
               f"{what}: ({t}, {s}, {k!r}, {m}) is not an operation of {S} stages and {M} micro-batches")
        expect((k, s, m) not in when, f"{what}: {k} of stage {s}, micro-batch {m} appears twice")
        when[(k, s, m)] = t
    missing = [(k, s, m) for k in "FB" for s in range(S) for m in range(M) if (k, s, m) not in when]
    expect(not missing, f"{what}: {len(missing)} operations are missing, e.g. {missing[0] if missing else ''} "
                        f"(kind, stage, micro-batch)")
    slots = {}
    for t, s, k, m in ops:
        expect((t, s) not in slots, f"{what}: stage {s} runs two operations at time step {t}: {slots.get((t, s))} "
                                    f"and {(k, m)}")
        slots[(t, s)] = (k, m)
    for (k, s, m), t in when.items():
        if k == "F" and s > 0:
            need = ("F", s - 1, m)
        elif k == "B":
            need = ("F", s, m) if s == S - 1 else ("B", s + 1, m)
        else:
            continue
        expect(when[need] < t, f"{what}: {k} of stage {s}, micro-batch {m} runs at step {t}, but it needs "
                               f"{need[0]} of stage {need[1]}, micro-batch {m}, which runs at step {when[need]} "
                               f"(it must finish at an earlier step)")


def _sorted(ops, what):
    expect(ops == sorted(ops, key=lambda o: (o[0], o[1])),
           f"{what}: the list is not sorted by time step, then stage")


def _equal(ops, S, M, kind, what):
    want = judge_schedule(S, M, kind)
    got, exp = set(ops), set(want)
    if got != exp:
        extra, miss = sorted(got - exp), sorted(exp - got)
        fail(f"{what}: differs from the schedule the rules give: e.g. {extra[:1]} is not in it and {miss[:1]} is "
             f"missing ({len(miss)} differences); the rules give {want[:12]}{' ...' if len(want) > 12 else ''}")


def _drawn(gen):
    """An (S, M) pair of the check's own seed, beside the fixed ones (a replayed answer for other inputs fails)."""
    return (int(torch.randint(2, 17, (1,), generator=gen)), int(torch.randint(1, 33, (1,), generator=gen)))


@pytest.mark.parametrize("S,M", SHAPES)
def test_gpipe_follows_the_rules(student, gen, S, M):
    """gpipe_schedule(S, M) is exactly the schedule the GPipe rule gives (forwards in order, then backwards)"""
    for S, M in ((S, M), _drawn(gen)):
        ops, what = _get(student, "gpipe_schedule", S, M)
        _valid(ops, S, M, what)
        _equal(ops, S, M, "gpipe", what)


@pytest.mark.parametrize("S,M", SHAPES)
def test_1f1b_follows_the_rules(student, gen, S, M):
    """one_f_one_b_schedule(S, M) is exactly the schedule the 1F1B rule gives"""
    for S, M in ((S, M), _drawn(gen)):
        ops, what = _get(student, "one_f_one_b_schedule", S, M)
        _valid(ops, S, M, what)
        _equal(ops, S, M, "1f1b", what)


@pytest.mark.parametrize("S,M", [(4, 8), (3, 7), (2, 5)])
def test_1f1b_in_flight_limit(student, gen, S, M):
    """on stage s, 1F1B never has more than S - s micro-batches forwarded but not yet backwarded"""
    S, M = (S, M) if S != 4 else _drawn(gen)
    ops, what = _get(student, "one_f_one_b_schedule", S, M)
    _equal(ops, S, M, "1f1b", what)
    for s in range(S):
        live, peak = 0, 0
        for t, st, k, m in sorted(ops):
            if st == s:
                live += 1 if k == "F" else -1
                peak = max(peak, live)
        expect(peak <= S - s, f"{what}: stage {s} has {peak} micro-batches in flight at once, at most {S - s} allowed")


def test_schedules_sorted_and_typed(student, gen):
    """both schedules are lists of (int, int, str, int) tuples sorted by time step, then stage"""
    for fn in ("gpipe_schedule", "one_f_one_b_schedule"):
        for S, M in ((3, 3), _drawn(gen)):
            ops, what = _get(student, fn, S, M)
            _sorted(ops, what)
            _equal(ops, S, M, "gpipe" if fn == "gpipe_schedule" else "1f1b", what)


def test_schedules_new_list_each_call(student, gen):
    """each call returns the whole schedule in a list of its own: a caller that changed the list an earlier call
    returned gets the full, sorted schedule again"""
    # held-out round 24: _greedy memoised with functools.lru_cache handed every caller one list object, so a caller
    # that sorted, popped or appended to it changed what the next call returned
    for fn in ("gpipe_schedule", "one_f_one_b_schedule"):
        for S, M in ((3, 4), _drawn(gen)):
            ops, what = _get(student, fn, S, M, again=True)
            expect(len(ops) == 2 * S * M,
                   f"{what}: {len(ops)} operations came back, expected 2·S·M = {2 * S * M}: each call returns a new "
                   f"list holding the whole schedule (the caller may change the list it gets); a list kept from an "
                   f"earlier call (a cache) comes back as that caller left it")
            _sorted(ops, what)
            _equal(ops, S, M, "gpipe" if fn == "gpipe_schedule" else "1f1b", what)


def _bubble(student, ops, S, what):
    res = student.call("bubble_call", schedule=[list(o) for o in ops], S=S)
    if res["error"]:
        fail(f"{what} raised {res['error']['type']}: {res['error']['message']}")
    expect(res["kind"] == "float", f"{what} returned a {res['kind']}, expected a Python float")
    return res["value"]


def _want_bubble(ops, S):
    T = 1 + max(o[0] for o in ops)
    return 1 - len({(o[0], o[1]) for o in ops}) / (S * T)


@pytest.mark.parametrize("S,M", [(4, 8), (3, 2), (1, 4), (5, 5)])
def test_bubble_of_the_classic_schedules(student, gen, S, M):
    """bubble_fraction of the GPipe and 1F1B schedules is (S - 1) / (M + S - 1)"""
    for kind, (S, M) in (("gpipe", (S, M)), ("1f1b", (S, M)), ("1f1b", _drawn(gen))):
        ops = judge_schedule(S, M, kind)
        what = f"bubble_fraction(the {kind} schedule of {S} stages and {M} micro-batches, {S})"
        got = _bubble(student, ops, S, what)
        want = (S - 1) / (M + S - 1)
        expect(abs(got - want) < 1e-12, f"{what}: expected {want!r}, got {got!r}")


def test_bubble_of_any_list(student, gen):
    """bubble_fraction counts idle (stage, step) slots of S x T for any list, unsorted, with idle stages and slots
    that hold two operations"""
    rnd = random.Random(int(gen.initial_seed()))
    for S, ops in ((1, [(0, 0, "F", 0)]), (3, [(0, 0, "F", 0)]), (2, [(2, 1, "B", 0)])):  # one operation
        what = f"bubble_fraction({ops}, {S})"
        got = _bubble(student, ops, S, what)
        expect(abs(got - _want_bubble(ops, S)) < 1e-12, f"{what}: expected {_want_bubble(ops, S)!r}, got {got!r}")
    # held-out round 6: a slot that holds two operations is one busy slot (counting list entries counts it twice)
    for S, ops in ((2, [(1, 0, "B", 0), (0, 0, "F", 0), (1, 0, "F", 1), (1, 1, "F", 0)]),
                   (1, [(0, 0, "F", 0), (0, 0, "B", 0), (0, 0, "F", 1)])):
        what = f"bubble_fraction({ops}, {S})"
        got = _bubble(student, ops, S, what)
        want = _want_bubble(ops, S)
        expect(abs(got - want) < 1e-12, f"{what}: expected {want!r}, got {got!r}; the fraction is of the S·T "
                                         f"(stage, step) slots in which no operation runs, and a slot that holds "
                                         f"two operations is one busy slot")
    for trial in range(6):
        S = rnd.randint(2, 5)
        T = rnd.randint(3, 12)
        slots = [(t, s) for t in range(T) for s in range(S) if rnd.random() < 0.5]
        slots.append((T - 1, rnd.randrange(S)))  # the last step is used
        if trial == 0:
            slots = [(t, s) for t, s in slots if s != S - 1] or [(T - 1, 0)]  # a stage that never works
        if trial == 1:
            slots = [(t, s) for t, s in slots if t >= 2] or [(T - 1, 0)]  # idle first steps
        ops = [(t, s, rnd.choice("FB"), rnd.randrange(4)) for t, s in dict.fromkeys(slots)]
        rnd.shuffle(ops)
        what = f"bubble_fraction({ops[:4]}{' ...' if len(ops) > 4 else ''} ({len(ops)} operations), {S})"
        got = _bubble(student, ops, S, what)
        want = _want_bubble(ops, S)
        expect(abs(got - want) < 1e-12, f"{what}: expected {want!r}, got {got!r}")
