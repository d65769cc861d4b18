"""A student's set-up from release/ alone, for instructors to try and for CI to test.

    python -m course.authoring.studentlab [--port 8890] [--dir .student-lab]

copies release/ to a scratch folder, makes a virtual environment there, runs the student's one
command (``pip install -r requirements.txt``) and starts JupyterLab on 127.0.0.1 with the student
settings of ``release/jupyter`` (Validate on; formgrader, course list, create-assignment and the
assignment list off).

To keep this quick on an instructor's machine, the new environment sees this environment's
third-party packages (torch, JupyterLab ...) as a plain path entry; the .pth files there (this
repository's editable install among them) are not processed, so the course package it imports is
the course-student package pip installs from release/, with no grader code.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

from .. import fstree
from .. import RELEASE_DIR, REPO_ROOT


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COURSE_", "JUPYTER", "NBGRADER"))}
    env.update(MPLBACKEND="Agg", **extra)
    return env


def make_student_env(home: Path) -> Path:
    """release/ copied to ``home/release`` and installed into ``home/venv``; the venv's python."""
    kit = home / "release"
    if kit.exists():
        fstree.remove(str(kit))
    shutil.copytree(RELEASE_DIR, kit)  # safe: release/ is built by trusted code, no sandbox writes it
    venv = home / "venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    py = venv / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "instructor-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "-r", "requirements.txt"], cwd=kit,
                       capture_output=True, text=True, env=clean_env(), timeout=900)
    if r.returncode != 0:
        raise RuntimeError("pip install -r requirements.txt failed:\n" + (r.stdout + r.stderr)[-3000:])
    return py


def lab_env(home: Path, config: str = "jupyter") -> dict:
    """The student's Jupyter settings; JupyterLab's own files come from this environment's share/. No
    MPLBACKEND: the kernels draw plots inline, as a student's do."""
    data = [str(Path(sys.prefix) / "share" / "jupyter")]
    env = clean_env(HOME=str(home), JUPYTER_CONFIG_DIR=str(home / "release" / config),
                    JUPYTER_PATH=os.pathsep.join(data), JUPYTER_RUNTIME_DIR=str(home / "runtime"))
    env.pop("MPLBACKEND")
    return env


def start_lab(home: Path, py: Path, port: int, token: str, config: str = "jupyter") -> subprocess.Popen:
    log = open(home / "lab.log", "w")
    proc = subprocess.Popen([str(py), "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={home / 'release'}",
                             "--ServerApp.open_browser=False",
                             *(["--allow-root"] if os.geteuid() == 0 else [])],
                            cwd=home / "release", env=lab_env(home, config), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited; see {home / 'lab.log'}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2).read()
            return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"JupyterLab did not answer within 90 s; see {home / 'lab.log'}")


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.studentlab")
    ap.add_argument("--port", type=int, default=8890)
    ap.add_argument("--dir", type=Path, default=REPO_ROOT / ".student-lab")
    args = ap.parse_args(argv)
    home = args.dir.resolve()
    home.mkdir(parents=True, exist_ok=True)
    print(f"setting up a student environment from release/ in {home} ...")
    py = make_student_env(home)
    token = secrets.token_hex(16)
    proc = start_lab(home, py, args.port, token)
    print(f"student JupyterLab: http://127.0.0.1:{args.port}/lab?token={token}  (Ctrl-C stops it)")
    try:
        proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
