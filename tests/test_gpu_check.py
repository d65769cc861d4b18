"""`make test-gpu` (course/authoring/gpu_check.py) without a GPU: it finds every GPU-marked check, judges
the references and EXPECT_GPU examples through the judge (here a stand-in judge that answers as a GPU
would), builds the table, exits non-zero when a check is not as expected, and never judges a
submission without the sandbox. The real GPU run: docs/gpu.md."""
import inspect
import re

import pytest

from course import SOURCE_DIR, TESTS_DIR
from course.authoring import gpu_check as G
from course.judge.results import Check, Results
from course.judge.suite import run_suite


def test_finds_every_gpu_marked_check_and_its_examples():
    """discover() against a plain text search of the suites; every stand-in twin exists; every topic's
    EXPECT_GPU examples build and name tasks that have GPU checks."""
    by_text = set()
    for f in TESTS_DIR.glob("*/test_*.py"):
        if (f.parent / "probes.py").exists():
            by_text |= {(f.parent.name, f.name, m) for m in
                        re.findall(r"^@pytest\.mark\.gpu\n(?:@.*\n)*def (test_\w+)", f.read_text(), re.M)}
    found = G.discover()
    assert {(c.topic, c.file, c.func) for c in found} == by_text
    assert len(found) >= 8 and all(c.task for c in found)
    assert set(G.STANDIN_TWINS) <= {c.key for c in found}
    for c in found:
        if c.twin:
            assert f"def {c.twin}(" in (TESTS_DIR / c.topic / c.file).read_text(), c.twin
    examples = [case for t in sorted({c.topic for c in found}) for case in G.cases(t, found)]
    assert {case.topic for case in examples if case.origin == "reference"} == {c.topic for c in found}
    assert {"timing_cuda_no_sync", "gpu_rng_forgets_cuda", "gpu_scaler_never_enabled"} <= \
        {case.name for case in examples if case.origin == "example"}


def as_a_gpu_should(topic, **changes):
    """(notebook stem, check function) -> status: the reference passes, each example fails the tasks its
    EXPECT_GPU says it fails; ``changes`` overrides some ("stem__function": status)."""
    checks = G.discover(topics=[topic])
    out = {}
    for case in G.cases(topic, checks):
        for c in checks:
            if c.task in case.expect:
                out[(case.source.stem if case.origin == "reference" else case.name, c.func)] = \
                    "passed" if case.expect[c.task] == "pass" else "failed"
    out.update({tuple(k.split("__")): v for k, v in changes.items()})
    return out


def fake_judge(verdicts: dict, calls: list):
    """A judge that answers as a GPU would: verdicts maps (notebook stem, GPU check function) -> status."""
    def runner(topic, notebooks, **kw):
        inspect.signature(run_suite).bind(topic, notebooks, **kw)  # the real judge takes these arguments
        calls.append((topic, kw))
        out = []
        for nb in notebooks:
            stem = nb.rsplit("/", 1)[-1].removesuffix(".ipynb")
            for c in G.discover(topics=[topic]):
                func = c.twin if kw["pytest_args"][0] == "-k" else c.func
                if c.task not in kw["notebook_tasks"][nb] or func is None:
                    continue
                status = verdicts.get((stem, c.func), "passed")
                out.append(Check(nodeid=f"{topic}/{c.file}::{func}[@0]", name=f"{func}[@0]", title="", task=c.task,
                                 status=status, message="" if status == "passed" else "why", notebook=nb))
        return Results(checks=out, seed=7)
    return runner


@pytest.fixture
def no_notebooks(monkeypatch):
    """The stand-in judge reads no notebook: skip building the examples' (the first test builds their specs)."""
    from course.grading.class_run import submissions
    monkeypatch.setattr(submissions, "write", lambda spec, dest, assignment=None: dest.write_text("{}"))


def test_table_and_verdicts_from_a_gpu_like_judge(no_notebooks):
    """Only the GPU-marked checks are asked for; a reference passing and an example failing its GPU task are
    as expected; a reference failure, an example passing, or a check with no result are not; skipped is
    not a pass."""
    checks, calls = G.discover(topics=["15-10"]), []
    judged = G.cases("15-10", checks)
    ref = judged[0].source.stem
    run = lambda verdicts, cases=judged: G.judge_topic("15-10", checks, cases, sandboxed=False, seed=1,  # noqa: E731
                                                       standin=False, runner=fake_judge(verdicts, calls))
    rows = run(as_a_gpu_should("15-10"))
    assert calls[0][1]["pytest_args"] == ("-m", "gpu") and calls[0][1]["sandbox"] == "off"
    assert calls[0][1]["notebook_tasks"][str(judged[0].source)] == ["resume", "trainer"]
    assert G.summary(rows)[0] == 0, G.table(rows)
    # a reference check failing on the GPU, and an example the GPU should reject passing
    rows = run(as_a_gpu_should("15-10", **{f"{ref}__test_cuda_device_and_fp16": "failed",
                                           "gpu_rng_forgets_cuda__test_resume_bit_exact_cuda": "passed"}))
    code, text = G.summary(rows)
    assert code == 1 and text.count("UNEXPECTED") == 2, text
    assert "| UNEXPECTED pass" in G.table(rows) and "gpu_rng_forgets_cuda: resume GPU checks" in text
    # skipped everywhere (no GPU after all): nothing verified, and that fails too
    skipped = run({k: "skipped" for k in as_a_gpu_should("15-10")})
    assert G.summary(skipped)[0] == 1 and all(r.ok is None for r in skipped)
    # a check the judge never reported is not as expected
    silent = G.judge_topic("15-10", checks, judged[:1], sandboxed=False, seed=1, standin=False,
                           runner=lambda *a, **k: Results(checks=[], seed=1))
    assert [r.result for r in silent if r.ok is False] == ["NO RESULT: the check did not run"] * 2


def test_main_prints_one_table_and_fails_on_a_failing_check(monkeypatch, capsys, no_notebooks):
    """python -m course.authoring.gpu_check --standin, end to end with a judge that answers as a GPU would."""
    import course.judge.suite as suite
    monkeypatch.setattr(G, "sandbox_state", lambda: (False, "sandbox: unavailable here (test)"))
    monkeypatch.setattr(suite, "run_suite", fake_judge(as_a_gpu_should("15-07"), []))
    assert G.main(["--standin", "--jobs", "2", "--topic", "15-07", "--topic", "15-09"]) == 0
    out = capsys.readouterr().out
    assert "| check " in out and "| expected |" in out and "not run: no CUDA stand-in twin" in out
    assert "15-07 timing_cuda_no_sync: cuda_timing GPU checks (stand-in)" in out
    ref = G.cases("15-07", G.discover(topics=["15-07"]))[0].source.stem
    monkeypatch.setattr(suite, "run_suite", fake_judge(
        as_a_gpu_should("15-07", **{f"{ref}__test_gpu_timing_synchronizes": "failed"}), []))
    assert G.main(["--standin", "--topic", "15-07"]) == 1
    assert "UNEXPECTED 15-07 reference: test_timing.py::test_gpu_timing_synchronizes" in capsys.readouterr().out


def test_never_judges_a_submission_without_the_sandbox(monkeypatch, capsys, tmp_path):
    """A submission (or anything outside source/ and tests/submissions/, whatever its label) is refused when
    unsandboxed: by main, and by judge_topic itself, before any judge starts."""
    calls = []
    monkeypatch.setattr(G, "sandbox_state", lambda: (False, "sandbox: unavailable here (test)"))
    import course.judge.suite as suite
    monkeypatch.setattr(suite, "run_suite", fake_judge({}, calls))
    nb = tmp_path / "student.ipynb"
    nb.write_text("{}")
    assert G.main(["--standin", "--notebook", str(nb), "--assignment", "15-07"]) == 2
    assert "REFUSED" in capsys.readouterr().out and not calls
    checks = G.discover(topics=["15-07"])
    for case in (G.Case("15-07", "s", "submission", nb, {"cuda_timing": "pass"}),
                 G.Case("15-07", "reference", "reference", nb, {"cuda_timing": "pass"}),
                 G.Case("15-07", "x", "example", nb, {"cuda_timing": "fail"})):
        with pytest.raises(G.Refused, match="never judged without"):
            G.judge_topic("15-07", checks, [case], sandboxed=False, seed=1, standin=False,
                          runner=fake_judge({}, calls))
        G.refuse_unsandboxed([case], sandboxed=True)  # in the sandbox it may be judged
    assert not calls
    G.refuse_unsandboxed(G.cases("15-07", checks), sandboxed=False)  # the course's own: allowed


def test_wheels_never_replace_an_installed_package(tmp_path):
    """Only the distributions this Python lacks are installed from the wheel folder."""
    (tmp_path / "pytest-0.1-py3-none-any.whl").write_bytes(b"not a wheel: must not be opened")
    assert G.install_wheels(tmp_path) == []
    assert G.missing_modules(("pytest", "no_such_module_here")) == ["no_such_module_here"]
