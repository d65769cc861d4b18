"""How much of a worker's text a student may read in the feedback (judge side).

Check messages are the judge's words, and they quote what the submission's worker sent where that
helps: an exception's type, message and lines, a wrong return value's repr. Everything the worker
sends is chosen by the submission, so those quotes are a channel out of the grading machine: a
submission that got hold of grader data (the checks' inputs, anything in its worker's memory) could
spell it out, one check message at a time. ``WorkerText`` bounds that channel per submission.

It remembers every string the worker sent (reply values and dict keys, error reports, the worker's
last output; large numbers as their digits), then ``limit`` finds the parts of a message that
repeat it: runs of ``GRAM`` characters the worker sent, and whole short strings and numbers. Those
parts may take at most ``PER_CHECK`` characters of one message, and together cost at most
``PER_SUBMISSION``: a part costs its length the first time it is shown, and ``REPEAT_COST`` when the
same text was shown before (plus its digits if only they differ), so an error raised by every check
stays readable in every check. Past either limit a part becomes ``[...]`` and the message ends with a
note saying so. The judge's own words are never cut unless they happen to repeat worker text.
"""
from __future__ import annotations

import re

GRAM = 6               # a run of this many characters the worker also sent counts as its text
SCAN = 2_048           # characters read from each end of a worker string (longer than any message)
PER_CHECK = 400        # characters of worker text one check's message may show
PER_SUBMISSION = 2_000  # what all messages of one submission may spend on worker text
REPEAT_COST = 2        # cost of showing text again (plus its digits, if they changed)
MAX_GRAMS = 2_000_000  # past this (about 1.4 % false matches) the record is full
MAX_TOKENS = 200_000
EXACT = 100_000        # grams kept as a set of hashes; past this, in a Bloom filter:
BLOOM_BITS = 1 << 25   # 4 MiB

CUT = "[...]"
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_QUOTED = re.compile(r"""'([^'\n]{1,%d})'|"([^"\n]{1,%d})\"""" % (GRAM, GRAM))


def note(cut: int, per_check: int = PER_CHECK, per_submission: int = PER_SUBMISSION) -> str:
    return (f"\n[{cut} characters of text from your code (its errors and returned values) are not shown: "
            f"feedback quotes at most {per_check} per check and {per_submission} in all]")


FULL = ("[the details of this check are not shown: your code sent back more text than the grader keeps "
        "track of]")


class WorkerText:
    """The text one submission's worker has sent, and what the feedback has shown of it so far."""

    def __init__(self, per_check: int = PER_CHECK, per_submission: int = PER_SUBMISSION):
        self.per_check, self.per_submission = per_check, per_submission
        self.left = per_submission
        self.full = False  # more text than the record holds: messages are withheld (fail closed)
        self.reported = False  # the grading log has been told the budget ran out
        self._hashes: set[int] = set()  # the grams' hashes, until there are EXACT of them
        self._bits: bytearray | None = None
        self._grams = 0  # grams heard (hashed or pending)
        self._pending: list[str] = []  # text heard whose grams are not hashed yet
        self._tokens: set[str] = set()
        self._seen: set[int] = set()  # hashes of strings already recorded
        self._shown: dict[str, int | None] = {}  # text shown before (digits as '#') -> how much (None: all)
        self._exact: set[str] = set()  # and the very texts

    # ------------------------------------------------------------------ recording
    def hear(self, obj) -> None:
        """Record every string in ``obj`` (a reply already checked by ``plain.check``, or a str)."""
        stack = [obj]
        while stack and not self.full:
            o = stack.pop()
            if isinstance(o, str):
                self._text(o)
            elif isinstance(o, (bytes, bytearray)):
                self._text(bytes(o).decode("latin-1"))
                self._text(repr(bytes(o))[2:-1])
            elif isinstance(o, bool) or o is None:
                continue
            elif isinstance(o, int):
                if abs(o) >= 1000:
                    try:
                        self._text(str(o))
                    except ValueError:  # more digits than Python prints, so no message can hold them
                        pass
            elif isinstance(o, float):
                for form in {repr(o), f"{o:.6g}", f"{o:.5g}"}:
                    self._text(form)
            elif isinstance(o, complex):  # shown as its repr, and its parts as floats
                self._text(repr(o))
                stack.extend((o.real, o.imag))
            elif isinstance(o, dict):
                stack.extend(o.keys())
                stack.extend(o.values())
            elif isinstance(o, (list, tuple, set, frozenset)):
                stack.extend(o)

    def _text(self, s: str) -> None:
        key = hash(s)
        if key in self._seen:
            return
        if len(self._seen) < MAX_TOKENS:
            self._seen.add(key)
        forms = {s, repr(s)[1:-1]}
        for form in forms:
            if not form:
                continue
            if len(form) < GRAM:
                if len(self._tokens) >= MAX_TOKENS:
                    self.full = True
                    return
                self._tokens.add(form)
                continue
            parts = (form,) if len(form) <= 2 * SCAN else (form[:SCAN], form[-SCAN:])
            for part in parts:  # counted now, hashed when a message is first limited (most checks pass)
                self._pending.append(part)
                self._grams += len(part) - GRAM + 1
            if self._grams > MAX_GRAMS:
                self.full = True
                return

    def _flush(self) -> None:
        """Hash the grams of the text heard since the last message (a check that passes shows none, so the
        record of a submission whose checks all pass is never built: about a tenth of the judge's CPU)."""
        pending, self._pending = self._pending, []
        for part in pending:
            for i in range(len(part) - GRAM + 1):
                self._add(part[i:i + GRAM])

    def _add(self, gram: str) -> None:
        if self._bits is None:
            self._hashes.add(hash(gram))
            if len(self._hashes) <= EXACT:
                return
            self._bits = bytearray(BLOOM_BITS // 8)
            for h in self._hashes:
                self._set(h)
            self._hashes = set()
        self._set(hash(gram))

    def _set(self, h: int) -> None:
        for i in (h & (BLOOM_BITS - 1), (h >> 32) & (BLOOM_BITS - 1)):
            self._bits[i >> 3] |= 1 << (i & 7)

    def _has(self, gram: str) -> bool:
        h = hash(gram)
        if self._bits is None:
            return h in self._hashes
        return all(self._bits[i >> 3] >> (i & 7) & 1 for i in (h & (BLOOM_BITS - 1), (h >> 32) & (BLOOM_BITS - 1)))

    # ------------------------------------------------------------------ showing
    def spans(self, msg: str) -> list[tuple[int, int]]:
        """The parts of ``msg`` that repeat worker text, as (start, end) pairs in order."""
        self._flush()
        covered = bytearray(len(msg) + 1)
        if self._grams:
            for i in range(len(msg) - GRAM + 1):
                if self._has(msg[i:i + GRAM]):
                    covered[i:i + GRAM] = b"\1" * GRAM
        if self._tokens:
            for pattern, shortest in ((_WORD, 2), (_NUMBER, 4), (_QUOTED, 1)):
                for m in pattern.finditer(msg):
                    group = m.lastindex or 0
                    text = m.group(group)
                    if len(text) >= shortest and text in self._tokens:
                        covered[m.start(group):m.end(group)] = b"\1" * len(text)
        out, start = [], None
        for i, c in enumerate(covered):
            if c and start is None:
                start = i
            elif not c and start is not None:
                out.append(self._whole_words(msg, start, i))
                start = None
        return [(a, b) for a, b in out if any(ch.isalnum() for ch in msg[a:b])]

    @staticmethod
    def _whole_words(msg: str, a: int, b: int) -> tuple[int, int]:
        """A match that starts or ends inside a word of the judge's ("raise" in "raised") keeps only
        whole words."""
        if a > 0 and msg[a - 1].isalnum():
            while a < b and msg[a].isalnum():
                a += 1
        if b < len(msg) and msg[b].isalnum():
            while b > a and msg[b - 1].isalnum():
                b -= 1
        return a, b

    def limit(self, msg: str) -> str:
        """``msg`` with the worker text in it kept within this check's and this submission's limits."""
        if not msg:
            return msg
        if self.full:
            return FULL
        out, pos, used, cut = [], 0, 0, 0
        for a, b in self.spans(msg):
            piece = msg[a:b]
            key = _DIGITS.sub("#", piece)
            if key not in self._shown:
                n = max(0, min(len(piece), self.per_check - used, self.left))
                cost = n
            else:
                before = self._shown[key]
                n = max(0, min(len(piece), len(piece) if before is None else before, self.per_check - used))
                cost = min(n, REPEAT_COST)
                if piece[:n] not in self._exact:  # the same words with other numbers: the digits are new
                    cost += sum(ch.isdigit() for ch in piece[:n])
                if cost > self.left:
                    n, cost = 0, 0
            out.append(msg[pos:a])
            out.append(piece[:n] + (CUT if n < len(piece) else ""))
            cut += len(piece) - n
            pos = b
            if n:
                self.left -= cost
                used += n
                self._shown.setdefault(key, None if n == len(piece) else n)
                if len(self._exact) < self.per_submission:
                    self._exact.add(piece[:n])
        out.append(msg[pos:])
        text = "".join(out)
        return text + note(cut, self.per_check, self.per_submission) if cut else text
