"""The students' tools on a shared machine: one environment built from release/requirements.txt.

``make student-env DEST=/opt/course-student [CPU=1]`` makes a venv in DEST with what a student installs
(PyTorch, JupyterLab, nbgrader, the course's student helpers from release/course-student/), readable and
runnable by every account, from a Python every account can run. The course-student package is built
from a copy outside release/ (pip builds a local folder in place: build/ and an egg-info would be left
in release/). Students then put DEST/bin first on their PATH.
"""
from __future__ import annotations

import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import RELEASE_DIR

CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def fail(line: str) -> "SystemExit":
    return SystemExit(f"student-env: {line}")


def shared_python(choice: str | None) -> str:
    """A Python 3.11+ that every account can run (the course venv's own may sit under /root)."""
    names = [choice] if choice else ["python3.11", "python3.12", "python3.13", "python3"]  # the course runs on 3.11
    for name in names:
        exe = shutil.which(name, path=None if choice else "/usr/local/bin:/usr/bin:/bin")
        if not exe:
            continue
        real = os.path.realpath(exe)
        if not all(os.stat(p).st_mode & stat.S_IXOTH for p in _chain(real)):
            continue
        r = subprocess.run([real, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                           capture_output=True, text=True)
        if r.stdout.strip() == "True":
            return real
    raise fail(f"no Python 3.11 or newer that every account can run (tried {', '.join(names)}): install one "
               f"(apt-get install python3.11-venv) or name it with STUDENT_PY=/path/to/python3.11")


def _chain(path: str) -> list[str]:
    out, p = [path], os.path.dirname(path)
    while p != os.path.dirname(p):
        out.append(p)
        p = os.path.dirname(p)
    return out


def closed_to_others(dest: Path) -> None:
    """Refuse a DEST that another account could change: it and every folder above it (links resolved) must be
    this account's or root's and writable by no other account (a sticky folder such as /tmp may be, as
    the folder below it is then checked to be ours). Every student runs what is in DEST."""
    real = os.path.realpath(dest)
    for p in reversed(_chain(real)):
        try:
            st = os.stat(p)
        except FileNotFoundError:
            continue
        if st.st_uid not in (0, os.geteuid()):
            raise fail(f"{p} belongs to another account (uid {st.st_uid}), which could change the tools every "
                       f"student runs: choose a DEST in folders of root's, e.g. /opt/course-student")
        if st.st_mode & 0o022 and not (st.st_mode & stat.S_ISVTX and p != real):
            raise fail(f"{p} is writable by other accounts, who could change the tools every student runs: "
                       f"choose a DEST in folders of root's, e.g. /opt/course-student")


PTH = "import course.student.private as _p; _p.private_torch_cache(fallback=False)\n"


def private_caches_pth(purelib: str) -> Path:
    """A .pth in the tools' site-packages: every Python of theirs (a terminal's, not only the lab's kernels
    and validate) keeps torch.compile's cache in its account's home, not in /tmp/torchinductor_<user>."""
    pth = Path(purelib) / "course-private-caches.pth"
    pth.write_text(PTH)
    return pth


def open_to_all(dest: Path) -> None:
    """a+rX and go-w on everything in ``dest`` (no link followed: chmod of links is skipped), whatever
    the umask pip ran under."""
    for dirpath, dirnames, filenames in os.walk(dest):
        for name in [*dirnames, *filenames]:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                continue
            mode = (stat.S_IMODE(st.st_mode) | 0o444 | (0o111 if stat.S_ISDIR(st.st_mode) or st.st_mode & 0o100 else 0)) & ~0o022
            if mode != stat.S_IMODE(st.st_mode):
                os.chmod(p, mode)  # safe: files this command just installed
    dest.chmod(0o755)


def build(dest: Path, cpu: bool, python: str | None, pip_args: list[str]) -> Path:
    if not dest.is_absolute():
        raise fail(f"DEST must be an absolute path every account can reach, not {dest}")
    blocked = [p for p in _chain(str(dest.parent)) if os.path.exists(p) and not os.stat(p).st_mode & stat.S_IXOTH]
    if blocked:
        raise fail(f"other accounts cannot enter {blocked[-1]}: choose a DEST outside it, e.g. /opt/course-student")
    closed_to_others(dest)
    os.umask(0o022)  # what venv and pip write: never writable by other accounts (some hubs run umask 0)
    py = shared_python(python)
    if not (dest / "bin" / "python").exists():
        r = subprocess.run([py, "-m", "venv", str(dest)], capture_output=True, text=True)
        if r.returncode != 0:
            raise fail(f"`{py} -m venv {dest}` failed: {(r.stderr.strip().splitlines() or ['?'])[-1]} "
                       f"(Debian/Ubuntu: apt-get install python3-venv)")
    closed_to_others(dest)  # again: made by another account between the check and venv (a sticky /tmp)
    with tempfile.TemporaryDirectory(prefix="course-student-") as tmp:
        kit = Path(tmp) / "course-student"
        shutil.copytree(RELEASE_DIR / "course-student", kit,  # safe: release/ is the course's own
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        lines = [str(kit) if ln.strip() == "./course-student" else ln
                 for ln in (RELEASE_DIR / "requirements.txt").read_text().splitlines()]
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(lines) + "\n")
        argv = [str(dest / "bin" / "python"), "-m", "pip", "install", "-q", "--no-cache-dir", "-r", str(req),
                *(["--extra-index-url", CPU_INDEX] if cpu else []), *pip_args]
        print(f"student-env: installing release/requirements.txt into {dest} "
              f"({'CPU' if cpu else 'default (CUDA on Linux)'} PyTorch wheels)", flush=True)
        if subprocess.run(argv, cwd=tmp).returncode != 0:
            raise fail(f"pip install failed (above); fix the cause and run the same command again")
    purelib = subprocess.run([str(dest / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    private_caches_pth(purelib)
    open_to_all(dest)
    return dest / "bin"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.student_env", description=__doc__.split("\n")[0])
    ap.add_argument("dest", type=Path, help="the folder to build it in, e.g. /opt/course-student")
    ap.add_argument("--cpu", action="store_true", help="PyTorch's CPU wheels (no CUDA libraries, about 1 GB less)")
    ap.add_argument("--python", default=None, help="the Python to build from (default: the system's python3.11+)")
    ap.add_argument("--pip-arg", action="append", default=[], help="one more argument for pip (repeatable)")
    args = ap.parse_args(argv)
    bin_dir = build(args.dest.absolute(), args.cpu, args.python, args.pip_arg)
    print(f"student-env: ready. Every student puts {bin_dir} first on PATH, e.g. in /etc/profile.d/course.sh:\n"
          f"  export PATH={bin_dir}:$PATH")
    return 0


if __name__ == "__main__":
    sys.exit(main())
