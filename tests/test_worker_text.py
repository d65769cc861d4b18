"""What a submission's worker can get into its feedback (course/judge/worker_text.py, course/judge/adapter.py):
its text is quoted within a small budget per check and per submission while the judge's own words
stay, an error repeated by every check stays readable, the worker never holds the probes' source, and
a probe file that does not load is a grading error, not the student's."""
import tempfile
from pathlib import Path

import pytest

from course import TESTS_DIR, sandbox
from course.judge.adapter import CourseError, ProcessStudent, StudentError
from course.judge.worker_text import CUT, FULL, PER_CHECK, PER_SUBMISSION, WorkerText
from course.judge.results import Results

PROBES_15_01 = (TESTS_DIR / "15-01" / "probes.py").read_text()


def distinctive_lines(text: str) -> set[str]:
    return {ln.strip() for ln in text.splitlines() if len(ln.strip()) > 25 and not ln.strip().startswith("#")}


def quoted(shown: str, judge: str) -> int:
    """Characters of worker text in ``shown``: everything but the judge's words, cut marks and note."""
    body = shown.split("\n[", 1)[0] if "characters of text from your code" in shown else shown
    return len(body.replace(CUT, "")) - len(judge)


def test_the_judges_words_stay():
    heard = WorkerText()
    heard.hear({"out": [1.5, 2.0], "message": "the size of tensor a (3) must match", "type": "ValueError"})
    msg = "softplus(x) for x of shape (5, 7): expected shape (5, 7), got (5, 1); your code raised nothing"
    assert heard.limit(msg) == msg
    heard.hear("raise NotImplementedError()")  # "raise" inside the judge's "raised" is not a quote
    assert heard.limit(msg) == msg


def test_an_error_repeated_by_every_check_stays_readable():
    """In every check of a suite larger than any of the course's (15-10 has 90)."""
    heard = WorkerText()
    shown = []
    for i in range(150):
        err = {"type": "RuntimeError", "message": f"mat1 and mat2 shapes cannot be multiplied ({i % 7}x4 and 3x5)",
               "trace": "cell 3, line 5, in forward: return x @ self.w"}
        heard.hear(list(err.values()))
        msg = (f"ScaledMul.apply(x, y, 2.5) for x of shape ({i}, 4): your code raised {err['type']}: "
               f"{err['message']}\n  at {err['trace']}")
        shown.append((msg, heard.limit(msg)))
    assert all(got == msg for msg, got in shown), next(got for msg, got in shown if got != msg)
    assert heard.left > 0


def test_a_leak_of_the_probe_file_is_capped():
    """The attack of issue 17: every check answered with an error carrying the next 1,800 characters
    of the probe file (with the worker's own 600-character cap lifted)."""
    heard = WorkerText()
    judge = "JUDGE-17 says: ValueError: "
    out = []
    for i in range(79):
        chunk = PROBES_15_01[(i * 1800) % len(PROBES_15_01):][:1800]
        heard.hear(["ValueError", chunk, ""])
        out.append(heard.limit(judge + chunk))
    # the judge's own words stay; the space after them may go with the heard text that follows (a probe file
    # that says " ValueError" was heard from the submission in an earlier check)
    assert all(o.startswith("JUDGE-17 says:") for o in out), out[-1][:200]
    per_check = [quoted(o, judge) for o in out]
    assert max(per_check) <= PER_CHECK
    assert sum(per_check) <= PER_SUBMISSION
    assert all("characters of text from your code" in o for o in out)
    leaked = {ln for ln in distinctive_lines(PROBES_15_01) if any(ln in o for o in out)}
    assert len(leaked) < len(distinctive_lines(PROBES_15_01)) // 3, sorted(leaked)


def test_short_strings_and_big_numbers_are_counted():
    """Text split into strings too short to match as runs, or spelled as digits, is quoted like any
    other: a repr of new lists in every check stays within the budget."""
    heard = WorkerText()
    total = 0
    for i in range(40):
        got = [f"{i:02d}{j:03d}"[-4:] + "x" for j in range(200)]  # new 5-character strings every check
        big = [10 ** 30 + i * 1000 + j for j in range(20)]
        heard.hear({"names": got, "sizes": big})
        o1 = heard.limit("count_ops(gm): expected {'add': 1}, got " + repr(got))
        o2 = heard.limit("sizes: " + repr(big))
        names = sum(len(g) for g in got if f"'{g}'" in o1)
        digits = sum(len(str(b)) for b in big if str(b) in o2)
        assert names <= PER_CHECK and digits <= PER_CHECK
        total += names + digits
    assert total <= PER_SUBMISSION


def test_complex_numbers_are_counted_as_text():
    """A complex number's repr carries two floats' worth of digits; a reply of them, quoted by a failed
    equality check, once showed in full past every budget."""
    import random
    rng = random.Random(5)
    heard = WorkerText()
    total = 0
    for i in range(20):
        got = [complex(rng.random(), rng.random()) for _ in range(12)]
        heard.hear({"value": got})
        judge = "phases(x): expected [], got "
        total += quoted(heard.limit(judge + repr(got)), judge)
    assert total <= PER_SUBMISSION + 20 * 40, f"{total} characters of complex numbers' digits were shown"


def test_the_same_words_with_new_numbers_pay_for_the_digits():
    heard = WorkerText()
    for i in range(10_000):
        text = f"index {i * 7919 % 100000:05d} is out of range"
        heard.hear(text)
        if CUT in heard.limit(f"your code raised IndexError: {text}"):
            break
    assert i < PER_SUBMISSION // 4, "changing only the digits of a message costs nothing"


def test_a_large_record_still_finds_its_quotes():
    import random
    rng = random.Random(5)
    texts = ["".join(rng.choice("abcdefghij klmnop") for _ in range(1500)) for _ in range(150)]
    heard = WorkerText()
    heard.hear(texts)  # past the exact set: the record is a Bloom filter now
    spans = heard.spans("judge words: " + texts[77][:300] + " :more judge words")
    assert [(a, b) for a, b in spans] == [(13, 313)], spans


def test_a_flood_of_text_withholds_the_details():
    heard = WorkerText()
    heard.hear([f"{i:x}" for i in range(300_000)])
    assert heard.full
    assert heard.limit("expected 3, got 4") == FULL


# ------------------------------------------------------------------ through a real worker

def _student(cells, probes, **kw):
    return ProcessStudent(cells, probes, sandboxed=sandbox.probe() is None, call_timeout=30, **kw)


SEARCH = r'''
import re, sys
_w = sys.modules["course.judge.worker"]
_seen = []  # the probes arrive before any cell runs (and rebinding the worker's add_probes fails every call)
_MARKS = {"comment": rb"COMMENT-MARKE[R]-1", "docstring": rb"DOCSTRING-MARKE[R]-2", "constant": rb"CONSTANT-MARKE[R]-3"}
def found():
    """Which of the probe file's markers are anywhere in this process's memory."""
    hits = {k for k, m in _MARKS.items() for s in _seen if re.search(m, s)}
    maps = open("/proc/self/maps").read().splitlines()
    with open("/proc/self/mem", "rb", 0) as mem:
        for line in maps:
            parts = line.split()
            if not parts[1].startswith("rw"):
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            if hi - lo > 1 << 28:
                continue
            try:
                mem.seek(lo)
                data = mem.read(hi - lo)
            except (OSError, ValueError, OverflowError):
                continue
            hits |= {k for k, m in _MARKS.items() if re.search(m, data)}
    return sorted(hits)
'''

MARKED = {"t": '''# COMMENT-MARKER-1: the probe file's comments
def found(ns):
    """DOCSTRING-MARKER-2"""
    return ns["found"]()
def constant(ns):
    return "CONSTANT-MARKER-3"
'''}


def test_the_worker_never_holds_the_probe_source():
    """A submission that wraps the probe loading and searches its whole memory finds the probes'
    code (their constants), never their comments or docstrings."""
    s = _student([SEARCH], MARKED)
    try:
        found = s.call("found")
    finally:
        s.close()
    assert "constant" in found, f"the memory search does not work, so it proves nothing: {found}"
    assert found == ["constant"], f"the probes' {found} reached the worker"


def test_a_probe_file_that_does_not_compile_is_a_course_error():
    with pytest.raises(CourseError, match=r"tests/15-99/probes\.py\) do not compile: line 2"):
        _student(["x = 1"], {"15-99": "import torch\ndef f(ns:\n"})


def test_a_probe_file_that_fails_to_load_is_a_course_error_not_the_students():
    s = _student(["raise ValueError('the student code is not to blame')"], {"15-99": "import no_such_module_here\n"})
    try:
        for _ in range(2):  # reported again, without starting a worker each time
            with pytest.raises(CourseError, match=r"tests/15-99/probes\.py.*No module named"):
                s.call("anything")
        assert s.proc is None
    finally:
        s.close()
    s = _student(["raise ValueError('mine')"], {"15-99": "def f(ns):\n    return ns['x']\n"})
    try:
        with pytest.raises(StudentError, match="KeyError"):
            s.call("f")
    finally:
        s.close()


def test_the_probe_leak_submission_through_the_judge(monkeypatch):
    """tests/submissions/_hostile/probe_leak.py judged on one task of 15-01, as autograde does."""
    from course.judge.suite import run_suite
    from course.grading.class_run import submissions

    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    with tempfile.TemporaryDirectory() as tmp:
        nb = Path(tmp) / submissions.release_notebook("15-01").name
        submissions.write(TESTS_DIR / "submissions" / "_hostile" / "probe_leak.py", nb, assignment="15-01")
        res = run_suite("15-01", str(nb), sandbox="auto", seed=5, tasks=["softplus", "forward_hooks"],
                        use_server=True)
    assert not res.error, res.error
    messages = [c.message for c in res.checks]
    assert messages and all(c.failed for c in res.checks)
    text = "\n".join(messages)
    assert "LEAK" in text, "the attack did not run in the worker, so this proves nothing"
    leaked = sorted(ln for ln in distinctive_lines(PROBES_15_01) if ln in text)
    assert len(leaked) <= 3, leaked
    assert "characters of text from your code" in text
    assert any("reached the budget" in e for e in res.events), res.events


def test_a_broken_probe_file_makes_the_run_a_grading_error(tmp_path):
    """Through the hidden-suite plugin: the results record carries an error naming the probe file
    (autograde then writes a grading error on every test cell and logs it), instead of failing the
    student's checks."""
    import subprocess
    import sys

    from course import REPO_ROOT
    from course.grading.class_run import submissions

    out = tmp_path / "results.json"
    script = f"""
import sys, pytest
import course.judge.pytest_plugin as plugin
plugin.probe_sources = lambda a: {{a: "def broken(ns:\\n    return 1\\n"}}
sys.exit(pytest.main([{str(TESTS_DIR / '15-01')!r}, "-q", "-p", "no:cacheprovider", "--sandbox=off",
                      "--notebook={submissions.release_notebook('15-01')}", "--task=softplus",
                      "--results-json={out}", "-o", "addopts=--import-mode=importlib"]))
"""
    r = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert out.exists(), r.stdout[-2000:] + r.stderr[-2000:]
    res = Results.load(out)
    assert "tests/15-01/probes.py) do not compile: line 1" in (res.error or ""), res.error
