"""Autograde forks each judging session from one server (course/judge/server.py): the verdicts
are the ones a fresh process gives, and a session that runs past its time limit is stopped
without taking the server down."""
from course.judge import server as judgeserver
from course.judge.suite import run_suite
from course.grading.class_run import submissions
from course.judge.pytest_plugin import reference_notebook

A = "15-01"
TASKS = ["softplus", "forward_hooks"]


def sessions() -> int:
    server = judgeserver.shared()
    assert server is not None, "the judge server could not start"
    return server.sessions


def verdicts(res):
    assert not res.error, res.error
    return sorted((c.name, c.status) for c in res.checks)


def test_forked_session_matches_a_fresh_process(monkeypatch):
    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    ref, blank = reference_notebook(A), submissions.release_notebook(A)
    fresh = verdicts(run_suite(A, ref, sandbox="auto", seed=5, tasks=TASKS))
    before = sessions()
    forked = verdicts(run_suite(A, ref, sandbox="auto", seed=5, tasks=TASKS, use_server=True))
    assert sessions() == before + 1, "the session did not run on the judge server (fell back to a process)"
    assert forked == fresh and all(s == "passed" for _, s in forked)
    blank_res = run_suite(A, blank, sandbox="auto", seed=5, tasks=TASKS, use_server=True)
    assert verdicts(blank_res) and all(c.failed for c in blank_res.checks if not c.penalty)  # a passed penalty earns nothing


def test_session_past_its_limit_is_stopped_and_the_server_goes_on():
    res = run_suite(A, reference_notebook(A), sandbox="auto", seed=5, tasks=TASKS, use_server=True, timeout=1)
    assert "did not finish within 1 s" in (res.error or "")
    before = sessions()
    again = verdicts(run_suite(A, reference_notebook(A), sandbox="auto", seed=5, tasks=TASKS, use_server=True))
    assert again and all(s == "passed" for _, s in again)
    assert sessions() == before + 1, "the server did not survive the stopped session"


def test_each_session_gets_a_fresh_zygote_started_ahead(tmp_path):
    """The server starts the next session's worker zygote while the current one runs
    (course.judge.spare): each session is handed one, and it is fresh. A notebook that leaves a
    file in its sandbox's /tmp and turns wrong when it finds one passes twice in a row."""
    import nbformat
    import pytest
    from course import sandbox
    from course.judge.suite import session_env
    if sandbox.probe() is not None:
        pytest.skip("needs the sandbox (bwrap): without it /tmp is the host's")
    marker = "/tmp/course-spare-marker"
    nb = nbformat.read(reference_notebook(A), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        f"import os as _os\nif _os.path.exists({marker!r}):\n    softplus = None\n"
        f"open({marker!r}, 'w').write('an earlier submission was here')"))
    path = tmp_path / "leaves_a_file.ipynb"
    nbformat.write(nb, path)
    server = judgeserver.shared()
    assert server is not None and server.prestart(session_env())
    # a session killed at its time limit cannot close its zygote: the server removes what it leaves
    assert "did not finish" in run_suite(A, path, sandbox="on", seed=5, tasks=TASKS, use_server=True,
                                         timeout=1).error
    before = server.spares
    for _ in range(2):
        res = verdicts(run_suite(A, path, sandbox="on", seed=5, tasks=TASKS, use_server=True))
        assert res and all(s == "passed" for _, s in res), res
    assert server.spares == before + 2, "the sessions were not handed a zygote started ahead"
    assert not __import__("os").path.exists(marker), "the sandbox's /tmp reached the host"
    import glob
    from course.sandbox import tempdirs
    folders = glob.glob(f"{tempdirs.private_root()}/course-zygote-{server.proc.pid}-*")
    assert len(folders) <= 1, f"zygotes of finished sessions left their folders: {folders}"  # 1: the next spare
    # the last session of a batch (the caller says none follows): it uses the spare, starts none
    server.next_expected = False
    try:
        res = verdicts(run_suite(A, path, sandbox="on", seed=5, tasks=TASKS, use_server=True))
    finally:
        server.next_expected = True
    assert res and all(s == "passed" for _, s in res), res
    assert server.spares == before + 3, "the last session was not handed the zygote started ahead"
    left = glob.glob(f"{tempdirs.private_root()}/course-zygote-{server.proc.pid}-*")
    assert left == [], f"a zygote was started ahead for a session that will not come: {left}"


def test_the_server_imports_ahead_what_a_session_s_workers_preload():
    """Before forking a session, the server imports (once) the torch modules of the session's worker preload list
    (15-05's judge exports programs too: ~0.7 s of imports a session otherwise); nothing outside torch, and a
    module that does not import is left to the session."""
    import sys
    from course.judge.forkserver import PRELOAD_ENV
    name = "torch.utils.bundled_inputs"  # imported by nothing else here
    sys.modules.pop(name, None)
    judgeserver._warm({PRELOAD_ENV: f"{name},torch.no_such_module_here,IPython.core.interactiveshell"})
    assert name in sys.modules and name in judgeserver._WARMED
    assert "IPython.core.interactiveshell" not in judgeserver._WARMED


def test_a_session_leaves_no_folder_after_the_server_ends(tmp_path):
    """A session forked from the server ends with os._exit (or SIGKILL at its limit), so its exit handlers never
    run: the server removes the folders it made (its course view, its staging folder) once it has ended. Seen in
    make test: a server's session left course-courseview-<pid> and course-stage-<pid> in /tmp, which the hostile
    batch's "no sandbox bytes left on the host" check, run beside it, reported."""
    import os
    import subprocess
    import sys
    script = ("from course.judge.suite import run_suite\n"
              "from course.judge.pytest_plugin import reference_notebook\n"
              f"res = run_suite({A!r}, reference_notebook({A!r}), sandbox='auto', seed=5, tasks=['softplus'],"
              " use_server=True)\n"
              "assert res.checks and not res.error, res.error\n")
    env = {**os.environ, "TMPDIR": str(tmp_path), "COURSE_ALLOW_CPU_GRADING": "1"}
    os.chmod(tmp_path, 0o755)  # sandbox accounts read the course view made here
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600,
                       cwd=str(__import__("course").REPO_ROOT))
    assert r.returncode == 0, r.stderr[-2000:]
    from course.sandbox import tempdirs
    own = tmp_path / f"course-grader-{os.geteuid()}"  # the grader's own folder in TMPDIR (tempdirs.private_root)
    assert own.is_dir(), sorted(p.name for p in tmp_path.iterdir())
    left = sorted(p.name for p in [*tmp_path.iterdir(), *own.iterdir()] if tempdirs._NAME.match(p.name))
    assert not left, f"folders left after the judge server and its session ended: {left}"
