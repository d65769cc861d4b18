"""Grade a class on a Slurm cluster: an array job over shards of students, then a closing job.

    python -m course.grading.cluster submit --root DIR --tasks N [--assignment A ...] [--db URL]
        [--gpus-per-task G] [--cpus-per-task C] [--workers W] [--partition P] [--time T]
        [--sbatch-arg=--account=X ...] [--examples] [--dry-run]
    python -m course.grading.cluster status --root DIR

``submit`` runs the pipeline's generate step once, here on the submitting node (release/, the
gradebook's copy of the test cells), writes two batch scripts into ``<root>/gradebook/cluster/``
and submits them with sbatch:

- ``grade.sbatch``: an array job ``--array=0-(N-1)`` whose task i runs the pipeline's autograde step
  with ``--shard i/N`` (the students whose index in the sorted ``gradebook/submitted/`` is i mod N),
  with ``--gres=gpu:G`` when asked;
- ``close.sbatch``: submitted with ``--dependency=afterany:<array id>``, it runs the feedback,
  export and report steps once every task has ended (also when some failed: it names them).

Every node must see the course root at the same path (a shared filesystem) and reach the gradebook:
with more than one task, a PostgreSQL server (``--db postgresql+psycopg2://user@host:port/db``).
``--dry-run`` only writes the scripts. Each task writes ``gradebook/cluster/rc/task-<i>.rc`` when it
ends, and the closing job ``rc/close.rc``; ``status`` reads them with squeue's view of the jobs.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ..records import db_url

PIPELINE = "course.grading.pipeline"
CLOSING_STEPS = "feedback,export,report"


class ClusterError(RuntimeError):
    """One line for the instructor: what failed and what to do."""


def cluster_dir(root: Path) -> Path:
    return root / "gradebook" / "cluster"


def _pipeline(python: str, root: Path, steps: str, args, *, shard: str | None = None,
              examples: bool = False) -> list[str]:
    cmd = [python, "-m", PIPELINE, "--root", str(root), "--steps", steps]
    if not examples:
        cmd.append("--no-examples")
    for a in args.assignment or []:
        cmd += ["--assignment", a]
    if shard:
        cmd += ["--shard", shard]
    if args.db:
        cmd += ["--db", args.db]
    return cmd


def _header(name: str, root: Path, output: str, args, *, array: int | None = None,
            gpus: int = 0, cpus: int = 1) -> list[str]:
    lines = ["#!/bin/bash", f"#SBATCH --job-name={name}", f"#SBATCH --chdir={root}",
             f"#SBATCH --output={cluster_dir(root) / 'logs' / output}", "#SBATCH --ntasks=1",
             f"#SBATCH --cpus-per-task={cpus}"]
    if array is not None:
        lines.append(f"#SBATCH --array=0-{array - 1}")
    if gpus:
        lines.append(f"#SBATCH --gres=gpu:{gpus}")
    if args.partition:
        lines.append(f"#SBATCH --partition={args.partition}")
    if args.time:
        lines.append(f"#SBATCH --time={args.time}")
    lines += [f"#SBATCH {a}" for a in args.sbatch_arg or []]
    return lines


def write_scripts(root: Path, args, python: str, secret: dict | None = None) -> tuple[Path, Path]:
    """Write grade.sbatch (the array) and close.sbatch (the closing job); return their paths. ``secret``: the
    gradebook's password by the variable its driver reads, exported by the scripts (0700), never an argument of
    the commands they run (``db_url.without_password``)."""
    out = cluster_dir(root)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    rc = out / "rc"
    shutil.rmtree(rc, ignore_errors=True)  # safe: gradebook/cluster is written only by this module, never sandbox-visible
    rc.mkdir()
    n = args.tasks
    from ... import REPO_ROOT
    env = [f"export PATH={shlex.quote(str(Path(python).parent))}:\"$PATH\" "
           f"PYTHONPATH={shlex.quote(str(REPO_ROOT))}${{PYTHONPATH:+:$PYTHONPATH}} PYTHONUNBUFFERED=1"]
    env += [f"export {k}={shlex.quote(v)}" for k, v in (secret or {}).items()]
    grade = _pipeline(python, root, "autograde", args, shard=f"$SLURM_ARRAY_TASK_ID/{n}")
    grade += ["--workers", str(args.workers)]
    grade_cmd = " ".join(shlex.quote(c) if "$" not in c else f'"{c}"' for c in grade)
    array_script = _header("grade", root, "grade-%A_%a.out", args, array=n, gpus=args.gpus_per_task,
                           cpus=args.cpus_per_task) + [
        f"# Written by `python -m course.grading.cluster submit`: task i of {n} autogrades the students",
        f"# whose index in the sorted gradebook/submitted/ is i mod {n}.",
        *env,
        'echo "task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID on $(hostname)"',
        grade_cmd,
        "code=$?",
        f'echo "$code" > {shlex.quote(str(rc))}/task-"$SLURM_ARRAY_TASK_ID".rc',
        'exit "$code"', ""]
    close = shlex.join(_pipeline(python, root, CLOSING_STEPS, args))
    close_script = _header("grade-close", root, "close-%j.out", args) + [
        "# Written by `python -m course.grading.cluster submit`: runs after every array task has ended.",
        *env,
        f"for i in $(seq 0 {n - 1}); do",
        f'  f={shlex.quote(str(rc))}/task-$i.rc',
        '  if [ ! -f "$f" ]; then echo "WARNING: array task $i did not finish (killed, timed out or never'
        ' started): its students are not graded"',
        '  elif [ "$(cat "$f")" != 0 ]; then echo "WARNING: array task $i ended with exit code $(cat "$f");'
        f' see {cluster_dir(root) / "logs"}/grade-*_$i.out"; fi',
        "done",
        close,
        "code=$?",
        f'echo "$code" > {shlex.quote(str(rc))}/close.rc',
        'exit "$code"', ""]
    paths = out / "grade.sbatch", out / "close.sbatch"
    for path, lines in zip(paths, (array_script, close_script)):
        # made 0700 as it is created, never the umask's mode first and chmod after: the scripts may export the
        # gradebook's password, and a course root still open (``--dry-run`` runs no generate step, which closes it)
        # let another account open the file in that moment and read it later (red team 24, host side)
        if path.is_symlink() or path.exists():
            path.unlink()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o700)
        with os.fdopen(fd, "w") as fh:
            os.fchmod(fd, 0o700)  # whatever the umask took away: the owner runs it
            fh.write("\n".join(lines))
    return paths


def sbatch(*args: str) -> str:
    """Submit; return the job id (``--parsable`` prints ``id`` or ``id;cluster``)."""
    if shutil.which("sbatch") is None:
        raise ClusterError("sbatch not found on PATH: run this on a Slurm login node "
                           "(or add --dry-run to only write the scripts)")
    proc = subprocess.run(["sbatch", "--parsable", *args], capture_output=True, text=True)
    job = proc.stdout.strip().split(";")[0]
    if proc.returncode or not job.isdigit():
        why = (proc.stderr.strip() or proc.stdout.strip() or "no output").splitlines()[-1]
        raise ClusterError(f"sbatch {' '.join(args)} failed (exit {proc.returncode}): {why}")
    return job


def submit(args) -> int:
    root = args.root.resolve()
    if args.examples:  # the bundled examples are a class of their own, in their own course root
        from ... import assignments
        from . import pipeline
        root = pipeline.prepare_examples_root(root, args.assignment or assignments())
    python = args.python or sys.executable
    args.db, password, pw_env = db_url.without_password(db_url.normalize(args.db))  # never on a task's command line
    if password is None:  # the entry point moved it into the environment already (db_url.reexec_without_password)
        password, pw_env = db_url.take_moved(args.db)
    if password is not None:
        print(db_url.NOTICE.format(env=pw_env) + " (the batch scripts, 0700, export it)")
    submitted = root / "gradebook" / "submitted"
    if args.tasks < 1:
        raise ClusterError("--tasks must be at least 1")
    if args.tasks > 1 and (not args.db or args.db.startswith("sqlite")):
        print(f"WARNING: {args.tasks} tasks writing one SQLite gradebook at once, over a shared filesystem, "
              "can fail ('database is locked'); pass --db postgresql+psycopg2://user@host:port/db")
    if not args.dry_run:
        if shutil.which("sbatch") is None:
            sbatch()  # raises the one-line error
        if shutil.which("sinfo"):  # the controller answers, before minutes of generate
            ping = subprocess.run(["sinfo", "-h", "-o", "%P"], capture_output=True, text=True)
            if ping.returncode:
                why = (ping.stderr.strip() or "no output").splitlines()[-1]
                raise ClusterError(f"Slurm does not answer (sinfo: {why}); nothing was submitted")
        from ... import tool_env
        env = tool_env()  # this venv's tools (alembic, for a new gradebook) on PATH, the course importable
        env["PATH"] = str(Path(python).parent) + os.pathsep + env["PATH"]
        if password is not None:
            env[pw_env] = password
        t0 = time.monotonic()
        gen = _pipeline(python, root, "generate", args, examples=args.examples)
        if subprocess.run(gen, env=env, cwd=root).returncode:
            raise ClusterError(f"the generate step failed ({shlex.join(gen)}); nothing was submitted")
        print(f"generate: done in {time.monotonic() - t0:.0f} s")
        students = sorted(p.name for p in submitted.iterdir() if p.is_dir()) if submitted.is_dir() else []
        if not students:
            raise ClusterError(f"nothing to grade: {submitted} is empty")
        if len(students) < args.tasks:
            print(f"NOTE: {len(students)} student(s) for {args.tasks} tasks: {args.tasks - len(students)} "
                  f"task(s) will have nothing to grade")
    grade, close = write_scripts(root, args, python, secret={pw_env: password} if password is not None else None)
    if args.dry_run:
        print(f"wrote {grade} and {close} (dry run: nothing submitted)")
        return 0
    array = sbatch(str(grade))
    try:
        closing = sbatch(f"--dependency=afterany:{array}", str(close))
    except ClusterError as exc:
        raise ClusterError(f"array job {array} was submitted, but not the closing job ({exc}); submit it "
                           f"with: sbatch --dependency=afterany:{array} {close}") from None
    (cluster_dir(root) / "jobs.json").write_text(json.dumps(
        {"array": array, "close": closing, "tasks": args.tasks, "db": bool(args.db),
         "submitted": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=1))
    print(f"submitted array job {array} ({args.tasks} tasks) and closing job {closing} "
          f"(after the array); logs in {cluster_dir(root) / 'logs'}")
    print(f"JOBS {array} {closing}")
    return 0


def status(args) -> int:
    root = args.root.resolve()
    jobs_file = cluster_dir(root) / "jobs.json"
    if not jobs_file.exists():
        raise ClusterError(f"no submission recorded in {jobs_file}")
    jobs = json.loads(jobs_file.read_text())
    rc = cluster_dir(root) / "rc"
    print(f"array job {jobs['array']} ({jobs['tasks']} tasks), closing job {jobs['close']}, "
          f"submitted {jobs['submitted']}")
    if shutil.which("squeue"):
        q = subprocess.run(["squeue", "-h", "-j", f"{jobs['array']},{jobs['close']}", "-o", "%i %T %M %R"],
                           capture_output=True, text=True)
        for line in q.stdout.splitlines():
            print(f"  queued: {line}")
    codes = {}
    for i in range(jobs["tasks"]):
        f = rc / f"task-{i}.rc"
        codes[i] = f.read_text().strip() if f.exists() else None
    ended = [i for i, c in codes.items() if c is not None]
    failed = [i for i, c in codes.items() if c not in (None, "0")]
    print(f"  tasks ended: {len(ended)}/{jobs['tasks']}" + (f", failed: {failed}" if failed else ""))
    close = rc / "close.rc"
    print(f"  closing job: " + (f"ended, exit code {close.read_text().strip()}" if close.exists() else "not ended"))
    return 0


def main(argv=None) -> int:
    from ... import REPO_ROOT
    ap = argparse.ArgumentParser(prog="python -m course.grading.cluster")
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("submit", help="generate here, then submit the grading array and its closing job")
    s.add_argument("--root", type=Path, default=REPO_ROOT, help="course root, on a filesystem every node sees")
    s.add_argument("--tasks", type=int, required=True, help="array tasks (shards of students)")
    s.add_argument("--assignment", action="append", help="only these assignments")
    s.add_argument("--db", help="gradebook URL every node can reach, e.g. postgresql+psycopg2://user@host:5432/gradebook")
    s.add_argument("--gpus-per-task", type=int, default=0, help="GPUs per array task (--gres=gpu:G)")
    s.add_argument("--cpus-per-task", type=int, default=2, help="CPUs per array task (default 2: kernel and judge)")
    s.add_argument("--workers", type=int, default=1, help="submissions graded at once within a task (default 1)")
    s.add_argument("--partition", help="Slurm partition")
    s.add_argument("--time", help="time limit per task (sbatch --time)")
    s.add_argument("--sbatch-arg", action="append", help="any other sbatch option, e.g. --sbatch-arg=--account=X")
    s.add_argument("--python", help="the course's Python on the nodes (default: this one)")
    s.add_argument("--examples", action="store_true", help="add the bundled example submissions (a demo class)")
    s.add_argument("--dry-run", action="store_true", help="only write the scripts")
    st = sub.add_parser("status", help="where the last submission stands")
    st.add_argument("--root", type=Path, default=REPO_ROOT)
    args = ap.parse_args(argv)
    try:
        return submit(args) if args.command == "submit" else status(args)
    except ClusterError as exc:
        print(f"cluster: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
