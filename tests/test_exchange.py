"""The README's "Running a class", run as written by three Unix accounts through nbgrader's exchange:

instructor (root): the README's first block: generate and release, the exchange folder made as
                   nbgrader's docs say, the students' Jupyter config published read-only
students (alice and bob, two non-root accounts made here with useradd): the README's student block,
                   fetch, validate, submit (alice hands in the reference, bob the blank)
instructor:        carol's LMS download (a truncated notebook) in downloaded/<id>/archive/, then the
                   README's collect-to-export block
students:          the README's fetch_feedback block

The blocks are read from README.md, so the README cannot drift from what CI runs; the only edit is
/srv/nbgrader -> a scratch folder. A student starts with a login's variables only (HOME, USER, LOGNAME,
LANG, and a PATH with nbgrader on it, as on a hub image) and gets the rest from the block. Their Python
is a venv every account can run that sees the course venv's packages and release/course-student (what
a student installs), so `import course` there finds only the student package.
"""
import csv
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

import nbformat
import pytest
import torch
from nbgrader.api import Gradebook

from course import RELEASE_DIR, REPO_ROOT
from course import assignments
from course.grading.class_run import submissions
from course.student.validate import SUCCESS

if not torch.cuda.is_available():
    os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

A = "15-01" if "15-01" in assignments() else assignments()[0]
README_SHARED = "/srv/nbgrader"
PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
NBGRADER = "#!{python}\nimport sys\nfrom nbgrader.apps.nbgraderapp import main\nsys.exit(main())\n"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root: makes two student accounts with useradd")


def readme_blocks() -> list[tuple[str, str]]:
    """(role, script) of each bash block in the README's "Running a class" section, in order."""
    text = (REPO_ROOT / "README.md").read_text()
    section = text.split("## Running a class", 1)[1].split("\n## ", 1)[0]
    blocks = []
    for body in re.findall(r"```bash\n(.*?)```", section, flags=re.S):
        first = body.splitlines()[0]
        role = re.match(r"# (instructor|student) ·", first)
        assert role, f"a README block without a role line: {first!r}"
        blocks.append((role.group(1), body))
    return blocks


def run_block(script: str, cwd: Path, env: dict, shared: Path, user: str | None = None) -> str:
    """Run one README block as ``user`` (None: this process's account) in a shell that goes on from the
    same person's last block (their exports carry over, as in one terminal): ``env`` is updated in place."""
    script = script.replace(README_SHARED, str(shared)).replace("15-01", A)
    dump = cwd / ".shell-env"
    ids = {} if user is None else {"user": user, "group": user, "extra_groups": []}
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", f'{script}\nenv -0 > "{dump}"'], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=1200, **ids)
    assert r.returncode == 0, f"README block failed for {user or 'the instructor'} in {cwd}:\n{script}\n" \
                              f"--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-5000:]}"
    env.clear()
    env.update(kv.split("=", 1) for kv in dump.read_text().split("\0") if "=" in kv)
    dump.unlink()
    return r.stdout + r.stderr


def student_python(base: Path, user: str) -> Path:
    """A venv's bin folder with python and nbgrader that ``user`` can run (the course venv's own base
    Python may sit in a folder only root can enter, e.g. /root/.pyenv)."""
    want = f"{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [os.path.realpath(sys._base_executable)] + \
        [p for p in (shutil.which(f"python{want}", path="/usr/local/bin:/usr/bin:/bin"),) if p]
    for py in candidates:
        try:
            r = subprocess.run([py, "-c", "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"],
                               capture_output=True, text=True, user=user, cwd="/")
        except PermissionError:
            continue
        if r.returncode == 0 and r.stdout.strip() == want:
            break
    else:
        pytest.fail(f"no Python {want} that a student account can run (tried {candidates})")
    venv, packages = base / "student-venv", sysconfig.get_paths()["purelib"]
    subprocess.run([py, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", PURELIB],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "course-student.pth").write_text(f"{packages}\n{RELEASE_DIR / 'course-student'}\n")
    (venv / "bin" / "nbgrader").write_text(NBGRADER.format(python=venv / "bin" / "python"))
    (venv / "bin" / "nbgrader").chmod(0o755)
    r = subprocess.run([str(venv / "bin" / "python"), "-c", "import torch, nbgrader, course.student.validate, course; "
                        "assert not hasattr(course, 'assignments'), course.__file__"],
                       capture_output=True, text=True, user=user, cwd="/", env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, f"a student account cannot import the course's packages (every folder above " \
                              f"{packages} and {RELEASE_DIR} must be readable by all):\n{r.stderr[-2000:]}"
    return venv / "bin"


@pytest.fixture(scope="module")
def accounts():
    """Two student accounts with homes in a scratch folder every account can enter; removed afterwards."""
    base = Path(tempfile.mkdtemp(prefix="exchange-class-", dir="/tmp"))
    base.chmod(0o755)
    tag = f"{os.getpid() % 100000}"
    names = {"alice": f"alice{tag}", "bob": f"bob{tag}"}
    made = []
    try:
        for name in names.values():
            home = base / "home" / name
            subprocess.run(["useradd", "--no-create-home", "--home-dir", str(home), "--shell", "/bin/sh",
                            "--user-group", name], check=True, capture_output=True)
            made.append(name)
            home.mkdir(parents=True)
            shutil.chown(home, name, name)
            home.chmod(0o700)
        yield base, names
    finally:
        for name in made:
            subprocess.run(["userdel", name], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def login_env(name: str, bin_dir: Path) -> dict:
    home = pwd.getpwnam(name).pw_dir
    return {"HOME": home, "USER": name, "LOGNAME": name, "SHELL": "/bin/sh", "LANG": "C.UTF-8",
            "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin"}


@pytest.fixture(scope="module")
def course(accounts, tmp_path_factory):
    base, names = accounts
    root, shared = tmp_path_factory.mktemp("exchange-course") / "course", base / "srv"
    (root / "gradebook").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source" / A, root / "source" / A,
                    ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    shutil.copytree(RELEASE_DIR / "jupyter-hub", root / "release" / "jupyter-hub")
    for link in ("course", ".venv"):  # a clone's code and the venv `make setup` made
        os.symlink(REPO_ROOT / link, root / link)
    blocks = readme_blocks()
    roles = [r for r, _ in blocks]
    assert roles == ["instructor", "student", "instructor", "student"], roles
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NBGRADER", "JUPYTER"))}
    log = run_block(blocks[0][1], root, env, shared)

    bin_dir = student_python(base, names["alice"])
    name = submissions.release_notebook(A).name
    students, validated = {}, {}
    fetch, rest = blocks[1][1].split("nbgrader validate", 1)
    for student, work in (("alice", submissions.reference(A)), ("bob", None)):
        user = names[student]
        home, senv = Path(pwd.getpwnam(user).pw_dir), login_env(user, bin_dir)
        run_block(fetch, home, senv, shared, user)
        fetched = home / A / name
        assert fetched.is_file(), f"{student} fetched nothing: {list(home.rglob('*'))}"
        if work is not None:
            nbformat.write(work, fetched)
        validated[student] = run_block("nbgrader validate" + rest, home, senv, shared, user)
        students[student] = (user, home, senv)

    # carol hands in through the LMS: a zip holding her notebook, cut off in the middle
    archive = root / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "lms-download.zip", "w") as z:
        z.writestr(f"carol_98765_assignsubmission_file_{name}", '{"cells": [{"cell_type": "code", "sou')
    log += run_block(blocks[2][1], root, env, shared)
    for user, home, senv in students.values():
        run_block(blocks[3][1], home, senv, shared, user)
    return root, shared, students, name, log, validated


def score(root, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        sub = gb.find_submission(A, student)
        return sub.score, sub.max_score


def test_students_config_is_shared_read_only(course):
    _, shared, students, *_ = course
    config = shared / "jupyter"
    entries = [config, *config.rglob("*")]
    assert (config / "nbgrader_config.py").is_file(), list(config.iterdir())
    for p in entries:
        st, want = p.stat(), 0o555 if p.is_dir() else 0o444
        assert st.st_uid == 0 and stat.S_IMODE(st.st_mode) == want, f"{p}: owner {st.st_uid}, mode {oct(st.st_mode)}"
    for student, (user, home, senv) in students.items():
        assert senv.get("JUPYTER_CONFIG_PATH") == str(config) or senv.get("JUPYTER_CONFIG_DIR") == str(config), \
            f"{student}'s block does not point Jupyter at the shared config: {sorted(senv)}"


def test_submissions_reach_the_gradebook(course):
    root, _, students, name, *_ = course
    for user in [u for u, _, _ in students.values()] + ["carol"]:
        assert (root / "gradebook" / "submitted" / user / A / name).is_file(), user


def test_scores(course):
    root, _, students, *_ = course
    got, full = score(root, students["alice"][0])
    assert got == full > 0, f"alice (reference) got {got}/{full}"
    assert score(root, students["bob"][0])[0] == 0
    assert score(root, "carol")[0] == 0


def test_terminal_validate_says_what_the_lab_says(course):
    *_, validated = course
    assert SUCCESS in validated["alice"], validated["alice"][-3000:]
    assert "passes all the tests" not in validated["alice"] + validated["bob"]
    assert "VALIDATION FAILED" in validated["bob"] and SUCCESS not in validated["bob"], validated["bob"][-3000:]


def test_broken_lms_notebook_is_one_line_and_a_note(course):
    root, _, _, name, log, _ = course
    lines = [ln for ln in log.splitlines() if "carol" in ln and "not a readable notebook" in ln]
    assert len(lines) == 1, log[-3000:]
    assert "Traceback" not in log and "NotJSONError" not in log, log[-3000:]
    pages = list((root / "gradebook" / "feedback" / "carol" / A).glob("*.html"))
    assert pages and "could not be read as a notebook" in pages[0].read_text(errors="replace")


def test_grades_go_to_the_gradebook_folder(course):
    root, _, students, *_ = course
    assert (root / "gradebook" / "grades.csv").is_file()
    assert not (root / "grades.csv").exists()
    rows = {r["student_id"]: r for r in csv.DictReader((root / "gradebook" / "grades.csv").open())}
    ids = [u for u, _, _ in students.values()] + ["carol"]
    assert {s: r["status"] for s, r in rows.items()} == {s: "graded" for s in ids}


def test_students_fetch_their_own_feedback(course):
    _, _, students, name, *_ = course
    for student, (user, home, _) in students.items():
        pages = list((home / A / "feedback").rglob("*.html"))
        assert pages, f"{student} fetched no feedback: {list(home.rglob('*'))}"
        text = pages[0].read_text(errors="replace")
        assert "Score" in text or "score" in text
        assert "student.call(" not in text and "def test_" not in text
        owners = {p.stat().st_uid for p in home.rglob("*")}
        assert owners == {pwd.getpwnam(user).pw_uid}, f"{student}'s home holds files of other accounts: {owners}"


def test_read_only_config_dir_after_ipython(course):
    """JUPYTER_CONFIG_DIR set to the shared read-only folder (as a hub image may) once ~/.ipython exists:
    jupyter_core's one-off migration must not try to write its marker there."""
    _, shared, students, *_ = course
    user, home, senv = students["bob"]
    assert (home / ".ipython").is_dir(), "validate made no ~/.ipython, so this proves nothing"
    env = {k: v for k, v in senv.items() if k != "JUPYTER_CONFIG_PATH"}
    env["JUPYTER_CONFIG_DIR"] = str(shared / "jupyter")
    r = subprocess.run(["nbgrader", "list"], cwd=home, env=env, capture_output=True, text=True, user=user,
                       group=user, extra_groups=[], timeout=300)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-3000:]
    assert A in r.stdout + r.stderr, r.stdout + r.stderr
