"""Grading on Slurm for real: a single-node Slurm (slurmctld, slurmd, munge) and a PostgreSQL
server, both from Debian's packages, started here in a temporary folder, grade a small class with
``python -m course.grading.cluster submit --tasks 2`` into PostgreSQL; the scores must equal a
serial SQLite run of the same class.

Not part of ``make test`` (it installs packages and starts daemons, a few minutes): run it with
``make test-cluster`` (COURSE_TEST_CLUSTER=1). As root with apt-get, missing packages are installed
(apt-get install -y). Every daemon is stopped at the end, also on failure.
"""
from __future__ import annotations

import contextlib
import csv
import glob
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from course import REPO_ROOT

needs_cluster = pytest.mark.skipif(not os.environ.get("COURSE_TEST_CLUSTER"),
                                   reason="installs and starts Slurm and PostgreSQL: run with make test-cluster")

ASSIGNMENT = "15-01"
# student -> how the submission is made (course.grading.class_run.submissions)
CLASS = {"alice": "reference", "bob": "partly_wrong", "carol": "release", "dave": "sp_log_not_log1p",
         "erin": "unusual_correct"}
TASKS = 2
# binary -> Debian package
PACKAGES = {"slurmctld": "slurmctld", "slurmd": "slurmd", "sbatch": "slurm-client", "munged": "munge",
            "initdb": "postgresql"}
VENV_BIN = str(Path(sys.executable).parent)


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    return found[-1] if found else shutil.which(name)


def _which(binary: str) -> str | None:
    return _pg_bin(binary) if binary == "initdb" else shutil.which(binary, path="/usr/sbin:/usr/bin:/sbin:/bin")


def ensure_packages() -> None:
    missing = sorted({pkg for b, pkg in PACKAGES.items() if _which(b) is None})
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(f"needs {', '.join(missing)} (Debian packages), and only root with apt-get installs them here")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", *missing]
    if subprocess.run(cmd, env=env, capture_output=True).returncode:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, f"apt-get install {' '.join(missing)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, n: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return f"({path} missing)"


def _wait(what: str, ok, timeout: float, logs) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ok():
            return
        time.sleep(0.5)
    logs = logs() if callable(logs) else logs
    pytest.fail(f"{what} did not come up in {timeout:.0f} s:\n" + "\n".join(f"--- {p}\n{_tail(p)}" for p in logs))


def _pid_alive(pidfile: Path) -> int | None:
    try:
        pid = int(pidfile.read_text().split()[0])
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError, IndexError):
        return None


def _stop_pid(pidfile: Path, timeout: float = 15) -> None:
    """Stop one daemon we started, by the pid it wrote (never by name)."""
    pid = _pid_alive(pidfile)
    if pid is None:
        return
    os.kill(pid, 15)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _pid_alive(pidfile) == pid:
        time.sleep(0.2)
    if _pid_alive(pidfile) == pid:
        os.kill(pid, 9)


@contextlib.contextmanager
def postgres(base: Path):
    """A PostgreSQL cluster in base/pg, on a free port on 127.0.0.1 and a unix socket in base/pg."""
    pg = base / "pg"
    pg.mkdir()
    shutil.chown(pg, "postgres", "postgres")
    pg.chmod(0o700)
    data, log, port = pg / "data", pg / "postgres.log", free_port()
    run_as = dict(user="postgres", group="postgres", extra_groups=[], cwd=pg, capture_output=True, text=True,
                  env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    proc = subprocess.run([_pg_bin("initdb"), "-D", str(data), "--auth=trust", "-U", "postgres", "-E", "UTF8",
                           "--locale=C.UTF-8"], **run_as)
    assert proc.returncode == 0, f"initdb failed: {proc.stdout[-1500:]}{proc.stderr[-1500:]}"
    pg_ctl = _pg_bin("pg_ctl")
    try:
        proc = subprocess.run([pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
                               f"-p {port} -k {pg} -c listen_addresses=127.0.0.1", "start"], **run_as)
        assert proc.returncode == 0, f"pg_ctl start failed: {proc.stderr}\n{_tail(log)}"
        import psycopg2
        con = psycopg2.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres")
        con.autocommit = True
        with con.cursor() as cur:
            cur.execute("CREATE DATABASE gradebook")
        con.close()
        yield f"postgresql+psycopg2://postgres@127.0.0.1:{port}/gradebook"
    finally:
        subprocess.run([pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], **run_as)


def _node() -> dict:
    """This machine as slurmd sees it (slurmd -C): NodeName, CPUs, sockets, cores, RealMemory."""
    out = subprocess.run(["slurmd", "-C"], capture_output=True, text=True).stdout
    first = out.splitlines()[0] if out else ""
    fields = dict(kv.split("=", 1) for kv in first.split() if "=" in kv)
    assert "CPUs" in fields and "RealMemory" in fields, f"slurmd -C said: {out!r}"
    return fields


@contextlib.contextmanager
def slurm(base: Path):
    """munged with a generated key, then slurmctld and slurmd with a generated single-node slurm.conf."""
    munge = base / "munge"
    munge.mkdir(mode=0o755)  # munged wants its socket folder open to all, its key private
    key = munge / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    msock, mpid = munge / "munge.sock", munge / "munged.pid"
    sl = base / "slurm"
    for d in ("state", "spool", "log"):
        (sl / d).mkdir(parents=True)
    conf = sl / "slurm.conf"
    node = _node()
    name = socket.gethostname().split(".")[0]
    conf.write_text("\n".join([
        "ClusterName=coursetest", f"SlurmctldHost={name}(127.0.0.1)",
        f"SlurmctldPort={free_port()}", f"SlurmdPort={free_port()}",
        "SlurmUser=root", "SlurmdUser=root", "AuthType=auth/munge", "CredType=cred/munge",
        f"AuthInfo=socket={msock}",
        f"StateSaveLocation={sl / 'state'}", f"SlurmdSpoolDir={sl / 'spool'}",
        f"SlurmctldPidFile={sl / 'slurmctld.pid'}", f"SlurmdPidFile={sl / 'slurmd.pid'}",
        f"SlurmctldLogFile={sl / 'log' / 'slurmctld.log'}", f"SlurmdLogFile={sl / 'log' / 'slurmd.log'}",
        # a container: no cgroups, no systemd
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none", "MpiDefault=none", "SwitchType=switch/none",
        "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU", "SchedulerType=sched/backfill",
        "ReturnToService=2", "SlurmdTimeout=60", "InactiveLimit=0", "KillWait=10",
        f"NodeName={name} NodeAddr=127.0.0.1 CPUs={node['CPUs']} RealMemory={node['RealMemory']} State=UNKNOWN",
        f"PartitionName=grading Nodes={name} Default=YES MaxTime=INFINITE State=UP", ""]))
    env = dict(os.environ, SLURM_CONF=str(conf))
    logs = [sl / "log" / "slurmctld.log", sl / "log" / "slurmd.log", munge / "munged.log"]
    try:
        try:
            subprocess.run(["munged", f"--key-file={key}", f"--socket={msock}", f"--pid-file={mpid}",
                            f"--log-file={munge / 'munged.log'}", f"--seed-file={munge / 'munged.seed'}"],
                           check=True, capture_output=True, text=True)
            subprocess.run(["slurmctld", "-f", str(conf)], env=env, check=True, capture_output=True, text=True)
            subprocess.run(["slurmd", "-f", str(conf)], env=env, check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as exc:
            pytest.fail(f"{exc.cmd[0]} did not start ({exc.returncode}): {exc.stderr}\n"
                        + "\n".join(f"--- {p}\n{_tail(p)}" for p in logs))

        def idle():
            q = subprocess.run(["sinfo", "-h", "-o", "%t"], env=env, capture_output=True, text=True)
            return q.stdout.strip() == "idle"
        _wait("the Slurm node", idle, 60, logs)
        yield env
    finally:
        subprocess.run(["scancel", "--user=root"], env=env, capture_output=True)  # only this test's cluster
        subprocess.run(["scontrol", "shutdown"], env=env, capture_output=True, timeout=30)
        for pidfile in (sl / "slurmd.pid", sl / "slurmctld.pid", mpid):
            _stop_pid(pidfile)


def build_class(root: Path) -> None:
    """A course root as tests/test_hostile.py builds one, with one submission per student of CLASS."""
    import nbformat
    from course.grading.class_run import submissions

    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source", root / "source", ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    nb_name = submissions.release_notebook(ASSIGNMENT).name
    for student, kind in CLASS.items():
        dest = root / "gradebook" / "submitted" / student / ASSIGNMENT / nb_name
        dest.parent.mkdir(parents=True)
        if kind == "reference":
            nbformat.write(submissions.reference(ASSIGNMENT), dest)
        elif kind == "release":
            shutil.copy(submissions.release_notebook(ASSIGNMENT), dest)
        else:
            submissions.write(REPO_ROOT / "tests" / "submissions" / ASSIGNMENT / f"{kind}.py", dest)
        (dest.parent / "timestamp.txt").write_text("2026-11-20 12:00:00.000000 UTC\n")


def scores(db: str) -> dict[str, dict[str, float]]:
    """student -> {grade cell: score} for ASSIGNMENT."""
    from nbgrader.api import Gradebook
    out = {}
    with Gradebook(db) as gb:
        for sub in gb.assignment_submissions(ASSIGNMENT):
            out[sub.student.id] = {g.name: g.score for nb in sub.notebooks for g in nb.grades if g.max_score > 0}
    return out


@pytest.fixture(scope="module")
def base():
    ensure_packages()
    path = Path(tempfile.mkdtemp(prefix="course-cluster-"))
    path.chmod(0o755)  # the postgres account reaches its folder in here
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)  # safe: made by this test; sandboxes saw only their own tmpfs


@needs_cluster
def test_slurm_array_grades_like_serial(base):
    root = base / "course"
    root.mkdir()
    build_class(root)
    serial = base / "serial"
    shutil.copytree(root, serial)
    env_common = {"PATH": VENV_BIN + os.pathsep + os.environ.get("PATH", ""), "COURSE_ALLOW_CPU_GRADING": "1",
                  "PYTHONUNBUFFERED": "1"}
    timings = {}
    from course.grading.class_run import batch
    key = batch.grading_key(ASSIGNMENT)  # what resume compares, besides the submission
    with postgres(base) as db, slurm(base) as slurm_env:
        env = dict(slurm_env, **env_common)
        t0 = time.monotonic()
        submit = [sys.executable, "-m", "course.grading.cluster", "submit", "--root", str(root), "--tasks", str(TASKS),
                  "--assignment", ASSIGNMENT, "--db", db, "--cpus-per-task", "1"]
        proc = subprocess.run(submit, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, f"cluster submit failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        array, closing = re.search(r"^JOBS (\d+) (\d+)$", proc.stdout, re.M).groups()
        timings["submit (generate)"] = time.monotonic() - t0
        cdir = root / "gradebook" / "cluster"

        def finished():
            q = subprocess.run(["squeue", "-h", "-j", f"{array},{closing}"], env=env, capture_output=True, text=True)
            return q.returncode == 0 and not q.stdout.strip()
        _wait("the closing job", finished, 1200, lambda: sorted((cdir / "logs").glob("*.out")))
        timings["cluster total"] = time.monotonic() - t0
        status = subprocess.run([sys.executable, "-m", "course.grading.cluster", "status", "--root", str(root)],
                                env=env, capture_output=True, text=True)
        print(status.stdout)
        cluster_scores = scores(db)
        first_logs = {i: (cdir / "logs" / f"grade-{array}_{i}.out").read_text() for i in range(TASKS)}
        close_log = cdir / "logs" / f"close-{closing}.out"
        details = "\n".join(f"--- task {i}\n{t[-3000:]}" for i, t in first_logs.items()) + f"\n--- close\n{_tail(close_log, 40)}"
        for i in range(TASKS):
            assert (cdir / "rc" / f"task-{i}.rc").read_text().strip() == "0", f"array task {i} failed:\n{details}"
        assert (cdir / "rc" / "close.rc").read_text().strip() == "0", f"the closing job failed:\n{details}"
        # each task graded its own shard, none was empty, together the whole class
        graded = [int(re.search(r"autograde: (\d+) graded", first_logs[i]).group(1)) for i in range(TASKS)]
        assert all(graded) and sum(graded) == len(CLASS), f"shards graded {graded}:\n{details}"
        # submitted again: every submission is unchanged, so no task grades anything twice
        t0 = time.monotonic()
        again = subprocess.run(submit, env=env, capture_output=True, text=True, timeout=900)
        assert again.returncode == 0, f"second submit failed:\n{again.stdout[-3000:]}\n{again.stderr[-3000:]}"
        array2, closing2 = re.search(r"^JOBS (\d+) (\d+)$", again.stdout, re.M).groups()

        def finished_again():
            q = subprocess.run(["squeue", "-h", "-j", f"{array2},{closing2}"], env=env, capture_output=True, text=True)
            return q.returncode == 0 and not q.stdout.strip()
        _wait("the second closing job", finished_again, 600, lambda: sorted((cdir / "logs").glob("*.out")))
        timings["resubmitted"] = time.monotonic() - t0
        second_logs = [(cdir / "logs" / f"grade-{array2}_{i}.out").read_text() for i in range(TASKS)]
        regraded = [int(re.search(r"autograde: (\d+) graded", t).group(1)) for t in second_logs]
        if batch.grading_key(ASSIGNMENT) == key:
            assert regraded == [0] * TASKS, "a resubmitted class graded again:\n" + "\n".join(second_logs)
        else:  # someone edited course/ or the suite meanwhile: grading again is then right
            print(f"NOTE: the grading code changed during the test, so the resubmission graded {regraded} again")
        assert (cdir / "rc" / "close.rc").read_text().strip() == "0"
        assert scores(db) == cluster_scores
    assert not (root / "gradebook" / "gradebook.db").exists(), "the cluster run wrote a SQLite gradebook"

    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "course.grading.pipeline", "--root", str(serial), "--no-examples",
                           "--assignment", ASSIGNMENT, "--workers", "1"], env=dict(os.environ, **env_common),
                          capture_output=True, text=True, timeout=1200)
    timings["serial (sqlite, 1 worker)"] = time.monotonic() - t0
    assert proc.returncode == 0, f"serial run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    serial_scores = scores(f"sqlite:///{serial / 'gradebook' / 'gradebook.db'}")

    print("timings: " + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()))
    for s in sorted(CLASS):
        print(f"{s:6} ({CLASS[s]}): cluster {sum(cluster_scores.get(s, {}).values()):.2f}  "
              f"serial {sum(serial_scores.get(s, {}).values()):.2f}")
    assert sorted(cluster_scores) == sorted(CLASS), f"graded on the cluster: {sorted(cluster_scores)}"
    assert all(v is not None for s in cluster_scores.values() for v in s.values()), cluster_scores
    assert cluster_scores == serial_scores
    assert cluster_scores["alice"] != cluster_scores["carol"]  # the class is not all one score
    for s in CLASS:
        assert list((root / "gradebook" / "feedback" / s / ASSIGNMENT).glob("*.html")), f"no feedback for {s}"
    with open(root / "gradebook" / "grades.csv", newline="") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh) if r["assignment"] == ASSIGNMENT}
    assert sorted(rows) == sorted(CLASS)
    assert all(r.get("status", "graded") == "graded" for r in rows.values()), rows
    report = re.search(r"class report: (\S+)", close_log.read_text())
    assert report and Path(report.group(1)).exists(), f"no class report:\n{_tail(close_log, 40)}"


# Without Slurm (these run in make test): the scripts --dry-run writes, and the one-line error.

def test_dry_run_writes_the_array_and_closing_scripts(tmp_path):
    from course.grading.class_run import cluster
    rc = cluster.main(["submit", "--root", str(tmp_path), "--tasks", "3", "--gpus-per-task", "1", "--partition", "gpu",
                       "--db", "postgresql://grader@db:5432/gradebook", "--assignment", ASSIGNMENT, "--dry-run"])
    assert rc == 0
    grade = (tmp_path / "gradebook" / "cluster" / "grade.sbatch").read_text()
    close = (tmp_path / "gradebook" / "cluster" / "close.sbatch").read_text()
    for line in ("#SBATCH --array=0-2", "#SBATCH --gres=gpu:1", "#SBATCH --partition=gpu", f"#SBATCH --chdir={tmp_path}"):
        assert line in grade.splitlines()
    assert '--steps autograde' in grade and '--shard "$SLURM_ARRAY_TASK_ID/3"' in grade
    assert "--steps feedback,export,report" in close and "--gres" not in close and "--array" not in close
    for script in (grade, close):
        assert "grader@db:5432/gradebook" in script and f"--assignment {ASSIGNMENT}" in script
        assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0


def test_without_sbatch_one_line(tmp_path, monkeypatch, capsys):
    from course.grading.class_run import cluster
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert cluster.main(["submit", "--root", str(tmp_path), "--tasks", "2", "--db", "postgresql://u@h/g"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cluster: sbatch not found on PATH"), err
    assert not (tmp_path / "gradebook" / "cluster").exists()
