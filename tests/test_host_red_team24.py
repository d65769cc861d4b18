"""Red team, 2026-12-05 (twenty-fourth, host side): students reach what is not theirs (issue 38).

Red team 23 took the gradebook's password off the pipeline's and ``cluster submit``'s own command lines; two more
commands the instructor types with ``--db`` kept it there for their whole run, where every account on the machine
reads it (``/proc/<pid>/cmdline``, ``ps``) and, with it, writes any grade:

- ``python -m course.grading.report --db URL`` (``make report DB=URL``);
- any ``nbgrader`` command in the course root with nbgrader's own ``--db URL`` (or ``--CourseDirectory.db_url``):
  ``nbgrader autograde 15-01 --db ...`` grades a class with it on its command line."""
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from course import REPO_ROOT

PASSWORD = "s3cret-pw24"
NOTICE = "password was on this command line"


def _cmdline(pid: int) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return fh.read()


@pytest.fixture
def silent_db():
    """A port that takes connections and never answers: a client waits there (up to the URL's connect_timeout), so a
    command with a gradebook URL stays alive to be read."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    yield f"postgresql+psycopg2://grader:{PASSWORD}@127.0.0.1:{srv.getsockname()[1]}/gradebook?connect_timeout=30"
    srv.close()


def _read_while_running(cmd: list[str], cwd: Path, what: str) -> tuple[list[str], bytes, bytes]:
    """Run ``cmd`` until it says the password was on its command line, hold it still (SIGSTOP) and read its command line
    and environment as they are then; its lines so far."""
    env = {k: v for k, v in os.environ.items() if k not in ("PGPASSWORD", "PYTEST_CURRENT_TEST")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    killer = threading.Timer(180, proc.kill)  # never hangs the suite
    killer.start()
    seen, args, environ = [], b"", b""
    try:
        for line in proc.stdout:
            seen.append(line)
            if NOTICE in line:
                os.kill(proc.pid, signal.SIGSTOP)
                args = _cmdline(proc.pid)
                with open(f"/proc/{proc.pid}/environ", "rb") as fh:
                    environ = fh.read()
                break
    finally:
        killer.cancel()
        proc.kill()
        proc.communicate()
    assert any(NOTICE in x for x in seen), \
        f"{what} never started again without the password on its command line (expected the notice " \
        f"{NOTICE!r}, as the pipeline gives); its output: {''.join(seen)[-1500:]}"
    return seen, args, environ


def _assert_moved(args: bytes, environ: bytes, what: str, url_shown: str) -> None:
    shown = args.replace(b"\0", b" ").decode(errors="replace")
    assert args, f"{what} had ended before its command line could be read (expected it still running)"
    assert PASSWORD.encode() not in args, \
        f"after its notice {what}'s command line, which every account reads in /proc/<pid>/cmdline, still holds the " \
        f"gradebook's password: {shown!r} (expected the URL without it, the password in PGPASSWORD)"
    assert url_shown in shown, f"{what} started again with {shown!r} (expected the URL {url_shown!r} in it)"
    assert f"PGPASSWORD={PASSWORD}".encode() in environ.split(b"\0"), \
        f"{what} started again without PGPASSWORD in its environment: it could not reach the gradebook"


def test_the_class_reports_command_line_loses_the_password(tmp_path, silent_db):
    """``make report DB=postgresql+psycopg2://grader:PW@db/gradebook`` runs ``python -m course.grading.report --db
    URL``: measured before, ``nobody`` read the password in its command line in every reading of the run (448 of 448,
    2.54 s with a small PostgreSQL gradebook); the entry point now starts again at once without it, as the
    pipeline's does."""
    root = tmp_path / "course"
    root.mkdir(mode=0o700)
    _, args, environ = _read_while_running([sys.executable, "-m", "course.grading.report", "--root", str(root),
                                            "--db", silent_db], REPO_ROOT, "python -m course.grading.report")
    _assert_moved(args, environ, "python -m course.grading.report", silent_db.replace(f":{PASSWORD}@", "@"))


def test_an_nbgrader_command_with_db_loses_the_password(tmp_path, silent_db):
    """nbgrader's own ``--db`` (``nbgrader autograde 15-01 --db URL``, the README's plain commands on a PostgreSQL
    gradebook): the password stayed in the command line for the whole command (a two-student ``autograde``: 2,328 of
    2,328 readings, 12.8 s). The course's nbgrader configuration now starts the same command again as nbgrader loads
    it, the URL without its password (2.0 s of 15.1 s measured, nbgrader's own start)."""
    from tests import tiny_course as tc
    root = tc.make(tmp_path / "course")
    nbgrader = str(Path(sys.executable).with_name("nbgrader"))
    _, args, environ = _read_while_running([nbgrader, "export", "--db", silent_db], root, "nbgrader export --db")
    _assert_moved(args, environ, "nbgrader export --db", silent_db.replace(f":{PASSWORD}@", "@"))


@pytest.mark.parametrize("form", ["--db URL", "--db=URL", "--CourseDirectory.db_url=URL"])
def test_only_an_nbgrader_script_with_a_password_starts_again(monkeypatch, form):
    """The restart is nbgrader's console script with the same arguments, each URL without its password; nothing for
    the pipeline's runner (``-c``: its nbgrader steps load the same configuration) or a URL without one."""
    from course.grading.records import db_url
    calls = []
    monkeypatch.setattr(os, "execve", lambda path, argv, env: calls.append((path, argv, env)))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    script = str(Path(sys.executable).with_name("nbgrader"))
    url = f"postgresql+psycopg2://grader:{PASSWORD}@db:5432/gradebook"
    args = ["autograde", "15-01", *form.replace("URL", url).split(" ")]
    db_url.reexec_nbgrader_without_password([script, *args])
    assert len(calls) == 1, f"nbgrader {' '.join(args)}: not started again without the password"
    path, argv, env = calls[0]
    plain = [a.replace(f":{PASSWORD}@", "@") for a in args]
    assert argv == [sys.executable, script, *plain], f"started again as {argv} (expected {plain} after the script)"
    assert env["PGPASSWORD"] == PASSWORD and env[db_url.MOVED_ENV] == "PGPASSWORD"
    calls.clear()
    db_url.reexec_nbgrader_without_password(["-c", *args])
    db_url.reexec_nbgrader_without_password([script, "autograde", "15-01", "--db", url.replace(f":{PASSWORD}@", "@")])
    assert calls == [], f"started again where nothing was to move: {calls}"


def test_the_score_table_names_ids_that_look_alike_in_more_scripts(tmp_path, monkeypatch):
    """Red team 23's look-alike line knew Cyrillic and Greek letters only: mallory as ``\u0251lice`` (U+0251 LATIN
    SMALL LETTER ALPHA), ``al\u0131ce`` (a dotless i), ``\u1ea1lice`` (an a with a dot below) or ``b\u0585b`` (an
    Armenian oh) was a row of her own that read as alice's or bob's, and the table said nothing; a small Greek nu
    (``\u03bdick``) was taken for an n, so it was named beside nick, whom it does not resemble, and not beside vick."""
    from nbgrader.api import Gradebook
    from course.grading.class_run import pipeline
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    A = "15-01"
    ids = ("alice", "\u0251lice", "al\u0131ce", "\u1ea1lice", "bob", "b\u0585b", "nick", "vick", "\u03bdick", "carol")
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gb:
        gb.add_assignment(A)
        for sid in ids:
            gb.add_student(sid)
    table = pipeline.score_table(tmp_path, [A], db)
    notes = [x for x in table.splitlines() if x.startswith("look-alike ids")]
    expected = {"alice": 4, "bob": 2, "vick": 2}
    assert len(notes) == len(expected), \
        f"the score table of {', '.join(repr(i) for i in ids)}:\n{table}\n(expected one line for each group of ids " \
        f"that look alike: alice with \u0251lice, al\u0131ce and \u1ea1lice; bob with b\u0585b; vick with \u03bdick)"
    for name, n in expected.items():
        line = [x for x in notes if f"'{name}'" in x]
        assert len(line) == 1 and line[0].startswith(f"look-alike ids, {n} students:"), \
            f"{name}: expected one line naming {n} students that look alike, got {notes}"
    assert any("U+0251 LATIN SMALL LETTER ALPHA" in x for x in notes), notes
    assert not any("'nick'" in x or "carol" in x for x in notes), f"nick and carol look like nobody else: {notes}"


def test_a_password_in_the_urls_query_is_moved_and_hidden_too():
    """``postgresql+psycopg2://grader@db/gradebook?password=PW`` connects (SQLAlchemy hands the query to the driver,
    libpq's ``password`` keyword), but every step that moved the password before "@" out of command lines, or hid it
    in printed lines, read none there: measured before, the pipeline's command line held it for a whole run (121.7 s
    of 121.9 s) and its last line printed it (``gradebook: ...?password=PW``)."""
    from course.grading.records import db_url
    url = f"postgresql+psycopg2://grader@db:5432/gradebook?sslmode=require&password={PASSWORD}&connect_timeout=5"
    bare, password, env = db_url.without_password(url)
    assert (password, env) == (PASSWORD, "PGPASSWORD") and PASSWORD not in bare, \
        f"without_password({url!r}) gave {(bare, password, env)} (expected the URL without its query's password, " \
        "the password for PGPASSWORD)"
    assert "sslmode=require" in bare and "connect_timeout=5" in bare, bare
    arg, password, env = db_url._strip_arg(f"--db={url}")
    assert (password, env) == (PASSWORD, "PGPASSWORD") and PASSWORD not in arg, \
        f"the entry points' restart kept {arg!r} (expected the argument without the query's password)"
    assert arg == "--db=postgresql+psycopg2://grader@db:5432/gradebook?sslmode=require&connect_timeout=5", arg
    assert PASSWORD not in db_url.shown(url), f"printed as {db_url.shown(url)!r}"


def test_the_pipelines_command_line_loses_a_password_given_in_the_query(tmp_path, silent_db):
    """The same run as red team 23's test, the password written as the URL's ``password`` parameter."""
    root = tmp_path / "course"
    root.mkdir(mode=0o700)
    url = silent_db.replace(f":{PASSWORD}@", "@") + f"&password={PASSWORD}"
    env_cmd = [sys.executable, "-m", "course.grading.pipeline", "--root", str(root), "--no-examples", "--steps", "report",
               "--db", url]
    _, args, environ = _read_while_running(env_cmd, REPO_ROOT, "python -m course.grading.pipeline")
    _assert_moved(args, environ, "python -m course.grading.pipeline", silent_db.replace(f":{PASSWORD}@", "@"))


def test_the_batch_scripts_are_never_readable_by_others(tmp_path, monkeypatch):
    """``cluster submit`` wrote its batch scripts, which export the gradebook's password, with the umask's mode and
    chmodded them 0700 after: in that moment another account could open one (a course root still open: ``--dry-run``
    runs no generate step, which closes it) and read the password through the open file later. With every chmod
    made a no-op, a script's mode is the mode it was created with; under umask 0 it was 0666."""
    import argparse
    from course.grading.class_run import cluster
    for name in ("chmod", "fchmod"):
        monkeypatch.setattr(os, name, lambda *a, **k: None)
    monkeypatch.setattr(Path, "chmod", lambda *a, **k: None)
    args = argparse.Namespace(tasks=2, assignment=["15-01"], db="postgresql+psycopg2://grader@db/gradebook", workers=1,
                              gpus_per_task=0, cpus_per_task=1, partition=None, time=None, sbatch_arg=None)
    old = os.umask(0)
    try:
        paths = cluster.write_scripts(tmp_path, args, sys.executable, secret={"PGPASSWORD": PASSWORD})
    finally:
        os.umask(old)
    for path in paths:
        mode = os.lstat(path).st_mode & 0o777
        assert f"export PGPASSWORD={PASSWORD}" in path.read_text(), f"{path.name} no longer exports the password"
        assert not mode & 0o077, \
            f"{path.name} (it exports the gradebook's password) was created with mode {mode:04o} under umask 0 " \
            "(expected 0700 from its creation, not a chmod after)"
