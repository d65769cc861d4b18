"""The lists a worker's replies carry, and the ``zip`` the hidden checks use (judge side; red team 14).

A reply is the submission's to choose, its lengths included: a worker can send the probe's real reply with a
list cut short. ``zip`` stops at its shortest argument, so a check that zips the judge's expected values with a
reply list (``for want, got in zip(cases, res)``) checked nothing past the reply's end, and an empty list
passed it whole (15-01's ``two_nodes_vjp`` answered ``[]``: a known-wrong ScaledMul kept all 21 checks of its
task). Every list and tuple of a reply is remembered here (``remember``, by the adapter, until the check ends:
``forget``), and the hidden checks' modules get ``zip`` below in place of the builtin (the judge's plugin
installs it): where one of its arguments is a reply's own list and shorter than every argument of the judge's
own, the check fails instead of comparing less. A zip of a reply with a slice or copy of it is not affected, nor ``strict=``.
"""
from __future__ import annotations

import builtins
from collections import deque

_SEQS: dict[int, object] = {}   # id -> the reply's list or tuple itself (kept alive, so no id is reused)
_HELD: deque = deque()          # (frame bytes, ids) per reply remembered, oldest first
_LIMIT = 200_000                # values walked per reply (a reply holds at most 100,000: course.wire, plain)
# Remembering a list keeps its reply alive until the check ends: a check that calls the worker many times (a
# property-based one) would otherwise hold every reply at once in the judge, outside every sandbox's memory cap.
# Past this many bytes of frames, the oldest replies are let go (the newest is always kept).
HELD_BYTES = 64 * 2**20


def remember(value, nbytes: int = 0) -> None:
    """Remember every list and tuple inside ``value`` (a reply of ``nbytes`` frame bytes, after ``plain.check``)
    until ``forget``, or until newer replies hold more than ``HELD_BYTES``."""
    stack, n, ids = [value], 0, []
    while stack and n < _LIMIT:
        v = stack.pop()
        n += 1
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            if id(v) not in _SEQS:
                _SEQS[id(v)] = v
                ids.append(id(v))
            stack.extend(v)
    _HELD.append((nbytes, ids))
    total = sum(b for b, _ in _HELD)
    while len(_HELD) > 1 and total > HELD_BYTES:
        b, old = _HELD.popleft()
        total -= b
        for i in old:
            _SEQS.pop(i, None)


def forget() -> None:
    _SEQS.clear()
    _HELD.clear()


def is_reply(obj) -> bool:
    return _SEQS.get(id(obj)) is obj


def _len(obj) -> int | None:
    try:
        return len(obj)
    except TypeError:
        return None


def zip(*iterables, strict: bool = False):  # noqa: A001 (the builtin's name on purpose)
    if not strict and len(iterables) > 1 and _SEQS:
        replies = [a for a in iterables if is_reply(a)]
        if replies:
            # the judge's own sequences may differ in length by design (names for three gradients, two of which
            # the case has): only a reply shorter than every one of them stops the zip before the judge's end
            own = [n for a in iterables if not is_reply(a) for n in (_len(a),) if n is not None]
            short = min(len(a) for a in replies)
            if own and short < min(own):
                from .expect import CheckFailed
                raise CheckFailed(f"a result your code sent back holds {short} entries where the check compares "
                                  f"{min(own)} (one for each case or input it gave)")
    return builtins.zip(*iterables, strict=strict)


def install(module) -> None:
    """Give ``module`` (a hidden check's, or a helper of one) this ``zip``."""
    if getattr(module, "zip", None) is not zip:
        module.zip = zip
