"""The ranks' rendezvous: a gloo group that fails to form is started again, never charged to a submission.

On a loaded machine gloo's full mesh now and then fails to connect (CI saw ``connectFullMesh failed ...
Connection closed by peer`` in 15-08's first launch). The judge's launcher (``probelib.fork_ranks``, used by
15-08's and 16-04's probes and the judge's own reference ranks) and the notebooks' ``launch`` start the whole
world again with a fresh store; a group that never forms is the machine's fault, said so.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import torch

from course.judge import probelib

ROOT = Path(__file__).resolve().parents[1]


def _body(tries_dir: str, fail_first: int):
    """A rank whose group fails to form (an unknown backend) on the first ``fail_first`` attempts, then joins a
    real gloo group and sends its rank and the sum of an all_reduce."""
    def body(rank, store_path, wfd):
        os.setsid()
        mark = os.path.join(tries_dir, f"rank{rank}")
        with open(mark, "a") as f:
            f.write("x")
        attempt = os.path.getsize(mark)
        backend = "no-such-backend" if attempt <= fail_first else "gloo"
        torch.set_num_threads(1)
        os.environ["GLOO_SOCKET_IFNAME"] = "lo"
        dist = probelib.join_group(store_path, rank, 2, 10.0, wfd, backend)
        t = torch.tensor([rank + 1.0])
        dist.all_reduce(t)
        probelib.send_frame(wfd, {"rank": rank, "sum": float(t)})
    return body


def test_a_failed_rendezvous_starts_the_world_again(tmp_path):
    out = probelib.fork_ranks(2, _body(str(tmp_path), fail_first=1), deadline_s=60, max_reply=2**20)
    assert out["attempts"] == 2
    assert not out["unfinished"] and out["left_behind"] == 0
    assert [out["frames"][r] for r in range(2)] == [[{"rank": 0, "sum": 3.0}], [{"rank": 1, "sum": 3.0}]]


def test_a_group_that_never_forms_is_the_machines_fault(tmp_path):
    with pytest.raises(probelib.RendezvousFailed, match="not of your code") as err:
        probelib.fork_ranks(2, _body(str(tmp_path), fail_first=5), deadline_s=60, max_reply=2**20, attempts=2)
    assert "no-such-backend" in str(err.value) or "backend" in str(err.value).lower()


def test_no_launcher_calls_init_process_group_without_the_retry():
    """Every gloo group the judge's ranks form goes through join_group (its failure is a frame fork_ranks reads)."""
    offenders = [str(p.relative_to(ROOT)) for p in ROOT.glob("tests/1[56]-*/*.py")
                 if re.search(r"init_process_group\(\s*(backend|\"gloo\")", p.read_text())]
    assert not offenders, f"forms a gloo group without probelib.join_group: {offenders}"


@pytest.mark.parametrize("nb", ["source/15-08/15-08_distributed.nb.py", "source/16-04/16-04_sharded_pipeline.nb.py"])
def test_the_notebooks_launcher_starts_a_group_that_did_not_form_again(nb, monkeypatch):
    """The launcher cell, run as it is in the notebook, with init_process_group failing on its first call in
    each forked rank of the first attempt: the second attempt's results come back."""
    text = (ROOT / nb).read_text()
    start = text.index("def _rank_entry(")
    end = text.index("\n# %%", start)
    ns: dict = {}
    exec("import datetime, os, pickle, tempfile, time, traceback\nimport torch\nimport torch.distributed as dist\n"
         "import torch.multiprocessing as mp\n", ns)
    exec(compile(text[start:end].split("\nprint(launch(")[0], nb, "exec"), ns)
    flag = f"/tmp/rendezvous-{os.getpid()}-{abs(hash(nb))}"
    real = ns["dist"].init_process_group

    def flaky(*a, **k):  # the first attempt's ranks each fail once (a file per attempt: the ranks are forked)
        if not os.path.exists(flag + "-1st"):
            raise RuntimeError("Gloo connectFullMesh failed: Connection closed by peer (simulated)")
        return real(*a, **k)

    monkeypatch.setattr(ns["dist"], "init_process_group", flaky)

    def rank_and_world():
        open(flag + "-ran", "a").close()
        return ns["dist"].get_rank(), ns["dist"].get_world_size()

    original_tmp = ns["tempfile"].TemporaryDirectory
    calls = []

    class CountingTmp(original_tmp):  # the second attempt's store folder: from then on the group forms
        def __init__(self, *a, **k):
            calls.append(1)
            if len(calls) == 2:
                open(flag + "-1st", "w").close()
            super().__init__(*a, **k)

    monkeypatch.setattr(ns["tempfile"], "TemporaryDirectory", CountingTmp)
    try:
        assert ns["launch"](rank_and_world, 2, timeout=60.0, op_timeout=10.0) == [(0, 2), (1, 2)]
        assert len(calls) == 2
    finally:
        for suffix in ("-1st", "-ran"):
            if os.path.exists(flag + suffix):
                os.remove(flag + suffix)


def test_a_probe_that_reports_no_group_has_the_submission_graded_again_alone(tmp_path, monkeypatch):
    """A probe whose ranks never formed a group (RendezvousFailed, after its retries) marks the session as the
    machine's trouble (Results.starved), which the batch grades again alone, as it does a starved time-out. The
    checks fail with a message that names the machine; a submission that breaks the group on purpose (as here)
    buys itself one regrade alone, and fails all the same."""
    import nbformat

    from course.judge.pytest_plugin import reference_notebook
    from course.judge.suite import run_suite
    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    nb = nbformat.read(reference_notebook("15-08"), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(  # every group the ranks try to form fails, as on a sick machine
        "import torch.distributed as _d\n\n"
        "def _no_group(*args, **kwargs):\n    raise RuntimeError('connectFullMesh failed (planted by the submission)')\n\n"
        "_d.init_process_group = _no_group\n"))
    path = tmp_path / "no_group.ipynb"
    nbformat.write(nb, path)
    res = run_suite("15-08", path, sandbox="auto", seed=5, tasks=["ring_pass"], use_server=True)
    assert not res.error, res.error
    assert res.checks and all(c.status == "failed" for c in res.checks if not c.penalty), [(c.name, c.status) for c in res.checks]
    assert any("not of your code" in c.message for c in res.checks), [c.message for c in res.checks][:2]
    # one entry, in the judge's words: the worker's message is the submission's text (red team 9)
    assert len(res.starved) == 1 and "planted" not in res.starved[0], res.starved


def test_a_submission_cannot_claim_a_failed_rendezvous(tmp_path, monkeypatch):
    """Red team 9: the worker's error report is the submission's to write. A windows() of 00-01 (whose probes
    fork no ranks) that raised a BaseException named RendezvousFailed, its message the hidden inputs' repr,
    made every probe call a starved entry: the submission was graded again alone at will, and each entry's
    text (the inputs) went into the feedback's notes outside the worker-text budget (9 entries, 2,601
    characters for one task before the fix)."""
    import nbformat

    from course.judge.pytest_plugin import reference_notebook
    from course.judge.suite import run_suite
    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    nb = nbformat.read(reference_notebook("00-01"), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "class RendezvousFailed(BaseException):\n    pass\n\n"
        "def windows(x, size, step):\n    raise RendezvousFailed('LEAK ' + repr((x.tolist(), size, step)))\n"))
    path = tmp_path / "forged.ipynb"
    nbformat.write(nb, path)
    res = run_suite("00-01", path, sandbox="auto", seed=5, tasks=["windows"], use_server=True)
    assert not res.error, res.error
    assert res.checks and all(c.status == "failed" for c in res.checks if not c.penalty), [(c.name, c.status) for c in res.checks]
    assert res.starved == [], f"00-01's windows raising a class named RendezvousFailed was taken as the " \
                              f"machine's trouble ({len(res.starved)} entries, e.g. {res.starved[0][:120]!r})"


def test_the_judges_own_ranks_that_form_no_group_report_not_finished(tmp_path):
    """judge_ranks (the judge's ZeroRedundancyOptimizer and fully_shard references) answers None, not an
    exception, when its ranks never form a group: the check then says it is the grader's trouble."""
    def target(rank, world, store, wfd):
        probelib.join_group(store, rank, world, 10.0, wfd, "no-such-backend")
    assert probelib.judge_ranks(2, target, deadline_s=60) is None


def _module(path: Path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"_judge_{path.parent.name}_{path.stem}".replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name,call", [
    ("test_zero.py", lambda m, z: m.zro_reference(z, 2, {"grads": [0]})),
    ("test_zero3.py", lambda m, z: m.fsdp_reference(z, 2, {"name": "n", "xs": [0], "init": []})),
])
def test_a_reference_run_that_never_finishes_has_the_submission_graded_again_alone(name, call, monkeypatch):
    """16-04's checks compare with PyTorch run on the judge's own ranks; when those do not finish (twice), the
    check raises GraderOverloaded: a grading error that the session also records as the machine's load
    (Results.starved), so the batch grades the submission again alone instead of keeping a zero."""
    from types import SimpleNamespace

    from course.judge.adapter import CourseError, GraderOverloaded
    from course.judge.pytest_plugin import SessionState, _grading_trouble
    mod = _module(ROOT / "tests" / "16-04" / name)
    calls = []
    monkeypatch.setattr(mod, "judge_ranks", lambda *a, **k: calls.append(1))
    with pytest.raises(GraderOverloaded, match="not the submission's fault") as err:
        call(mod, SimpleNamespace(seed=7))
    assert len(calls) == 2, f"the reference run was tried {len(calls)} times, not twice"
    st = SessionState(seed=7)
    _grading_trouble(st, err.value)
    assert st.error == str(err.value) and st.starved == [str(err.value)]
    other = SessionState(seed=7)
    _grading_trouble(other, CourseError("probes do not compile"))
    _grading_trouble(other, AssertionError("a check failed"))
    assert other.error == "probes do not compile" and other.starved == []
