"""The README's "Running a class", run as written by three Unix accounts through nbgrader's exchange:

instructor (root): the README's first block: generate and release, the exchange folder made as
                   nbgrader's docs say, the students' Jupyter config published read-only
students (alice and bob, two non-root accounts made here with useradd): the README's student block,
                   fetch, validate, submit (alice hands in the reference, bob the blank)
instructor:        carol's LMS download (a truncated notebook) in downloaded/<id>/archive/, then the
                   README's collect-to-export block
students:          the README's fetch_feedback block

The blocks are read from README.md, so the README cannot drift from what CI runs; the only edits are
/srv/nbgrader -> a scratch folder and /opt/course-student (make student-env) -> the students' venv here.
A student starts with a login's variables only (HOME, USER, LOGNAME, LANG, and the system's PATH) and gets
the rest from the block. Their Python is a venv every account can run that sees the course venv's
packages and release/course-student (what a student installs), so `import course` there finds only the
student package. The course root sits in a folder every account can enter (as /home/<instructor> on
Debian), so only its own mode keeps the class out; then each student tries to read and write what is the
instructor's or a classmate's, and a course folder in the exchange replaced by a student's is refused.
"""
import csv
import json
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
from tests.accounts import student_accounts
from course import assignments
from course.grading.class_run import submissions
from course.student.validate import SUCCESS

if not torch.cuda.is_available():
    os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

A = "15-01" if "15-01" in assignments() else assignments()[0]
README_SHARED = "/srv/nbgrader"
README_TOOLS = "/opt/course-student"
PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
NBGRADER = "#!{python}\nimport sys\nfrom nbgrader.apps.nbgraderapp import main\nsys.exit(main())\n"



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


def run_block(script: str, cwd: Path, env: dict, shared: Path, user: str | None = None, rc: int = 0) -> str:
    """Run one README block as ``user`` (None: this process's account) in a shell that goes on from the
    same person's last block (their exports carry over, as in one terminal): ``env`` is updated in place."""
    script = script.replace(README_SHARED, str(shared)).replace("15-01", A)
    script = script.replace(README_TOOLS, str(env.get("COURSE_TEST_TOOLS", README_TOOLS)))
    dump = cwd / ".shell-env"
    ids = {} if user is None else {"user": user, "group": user, "extra_groups": []}
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", f'{script}\nenv -0 > "{dump}"'], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=1200, **ids)
    assert r.returncode == rc, f"README block exited {r.returncode}, not {rc}, for {user or 'the instructor'} in {cwd}:\n{script}\n" \
                              f"--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-5000:]}"
    if dump.exists():  # not when the block stopped where it was expected to (rc)
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
    venv, packages, kit = base / "student-venv", sysconfig.get_paths()["purelib"], RELEASE_DIR / "course-student"
    real = Path(os.path.realpath(packages))
    # the folders on the way as written (a venv linked from a clone) and as resolved
    if not all(os.stat(p).st_mode & stat.S_IXOTH for p in [real, *real.parents, *Path(packages).parents]):
        # this checkout's course root is closed to other accounts (make setup did it): the students get
        # their own copy of the packages, as make student-env gives them (hard links: no bytes copied)
        subprocess.run(["cp", "-al", packages, str(base / "packages")], check=True)
        shutil.copytree(kit, base / "course-student")
        packages, kit = str(base / "packages"), base / "course-student"
    subprocess.run([py, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", PURELIB],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "course-student.pth").write_text(f"{packages}\n{kit}\n")
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
    with student_accounts("exchange-class", ("alice", "bob")) as made:
        yield made


def login_env(name: str, bin_dir: Path) -> dict:
    home = pwd.getpwnam(name).pw_dir
    return {"HOME": home, "USER": name, "LOGNAME": name, "SHELL": "/bin/sh", "LANG": "C.UTF-8",
            "PATH": "/usr/local/bin:/usr/bin:/bin", "COURSE_TEST_TOOLS": str(bin_dir.parent)}


@pytest.fixture(scope="module")
def course(accounts, tmp_path_factory):
    base, names = accounts
    root, shared = base / "instructor" / "course", base / "srv"
    (root / "gradebook").mkdir(parents=True)
    for p in (root.parent, root, root / "gradebook"):
        p.chmod(0o755)  # as a fresh clone in a Debian home folder
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source" / A, root / "source" / A,
                    ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    shutil.copytree(RELEASE_DIR / "jupyter-hub", root / "release" / "jupyter-hub")
    shutil.copytree(REPO_ROOT / "tests" / A, root / "tests" / A, ignore=shutil.ignore_patterns("__pycache__"))
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
        check, submit = ("nbgrader validate" + rest).split("\n", 1)
        # validate exits 1 where a visible check fails (the blank): the student goes on and submits
        validated[student] = run_block(check, home, senv, shared, user, rc=0 if work is not None else 1)
        validated[student] += run_block(submit, home, senv, shared, user)
        students[student] = (user, home, senv)

    # carol hands in through the LMS: a zip holding her notebook, cut off in the middle
    archive = root / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "lms-download.zip", "w") as z:
        z.writestr(f"carol_98765_assignsubmission_file_{name}", '{"cells": [{"cell_type": "code", "sou')
    log += run_block(blocks[2][1], root, env, shared)
    for user, home, senv in students.values():
        run_block(blocks[3][1], home, senv, shared, user)
    return root, shared, students, name, log, validated, env


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
    *_, validated, _ = course
    assert SUCCESS in validated["alice"], validated["alice"][-3000:]
    assert "passes all the tests" not in validated["alice"] + validated["bob"]
    assert "VALIDATION FAILED" in validated["bob"] and SUCCESS not in validated["bob"], validated["bob"][-3000:]


def test_broken_lms_notebook_is_one_line_and_a_note(course):
    root, _, _, name, log, *_ = course
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


# Run as a student: each attempt on the instructor's or a classmate's files, and whether it worked.
TRY = """
import json, os, sys
out = {}
def attempt(what, fn):
    try:
        fn()
        out[what] = True
    except OSError:
        out[what] = False
def read(p):
    with open(p, "rb") as fh:
        fh.read(1)
def write(p):
    with open(p, "w") as fh:
        fh.write("planted")
for what, path in json.loads(sys.argv[1]).items():
    if what.startswith("read "):
        attempt(what, lambda: read(path))
    elif what.startswith("list "):
        attempt(what, lambda: os.listdir(path))
    elif what.startswith("write "):
        attempt(what, lambda: write(path))
    elif what.startswith("move "):
        attempt(what, lambda: os.rename(path, path + ".moved"))
print(json.dumps(out))
"""


def attempts(user: str, home: Path, targets: dict[str, Path]) -> dict[str, bool]:
    r = subprocess.run(["/usr/bin/python3", "-c", TRY, json.dumps({k: str(v) for k, v in targets.items()})],
                       cwd=home, capture_output=True, text=True, user=user, group=user, extra_groups=[],
                       env={"PATH": "/usr/bin:/bin", "HOME": str(home)}, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_students_cannot_reach_the_instructors_or_each_others_files(course):
    """Neither student can read a solution, a hidden check, the gradebook, a secret or a classmate's
    feedback or submission, nor write into one, nor move the course's folder in the exchange."""
    root, shared, students, name, *_ = course
    course_dir = shared / "exchange" / "advanced-pytorch-internals"
    hidden = sorted((root / "tests" / A).glob("*.py"))[0]
    found = {}
    for student, other in (("alice", "bob"), ("bob", "alice")):
        user, home, _ = students[student]
        them = students[other][0]
        theirs = root / "gradebook" / "submitted" / them / A
        their_feedback = sorted((root / "gradebook" / "feedback" / them / A).glob("*.html"))[0]
        their_inbound = [p for p in (course_dir / "inbound").iterdir() if p.name.startswith(f"{them}+")]
        assert their_inbound, sorted(p.name for p in (course_dir / "inbound").iterdir())
        targets = {
            "read a solution (source/)": root / "source" / A / name,
            "read a hidden check (tests/<id>/)": hidden,
            "read the gradebook": root / "gradebook" / "gradebook.db",
            "read a classmate's submission": theirs / name,
            "read a classmate's secret": theirs / "submission_secret.txt",
            "read a classmate's feedback": their_feedback,
            # its name is not listable, but a classmate's home others can read shows it (nbgrader's cache)
            "read a classmate's handed-in notebook in the exchange": their_inbound[0] / name,
            "read a classmate's secret in the exchange": their_inbound[0] / "submission_secret.txt",
            "list the course root": root,
            "list the exchange's inbound/": course_dir / "inbound",
            "list the exchange's feedback/": course_dir / "feedback",
            "write into a classmate's submission": theirs / "planted.txt",
            "write over a classmate's submission": theirs / name,
            "write into a classmate's feedback": their_feedback.parent / "planted.html",
            "write into the release (outbound/)": course_dir / "outbound" / A / "planted.txt",
            "move the course's folder in the exchange": course_dir,
        }
        # what they must still do: read the release
        own = attempts(user, home, {"read the release": next((course_dir / "outbound" / A).glob("*.ipynb"))})
        assert own == {"read the release": True}, own
        got = attempts(user, home, targets)
        found[student] = [k for k, ok in got.items() if ok]
        moved = course_dir.with_name(course_dir.name + ".moved")
        if moved.exists():  # put back, so that what comes next tests something
            moved.rename(course_dir)
    assert found == {"alice": [], "bob": []}, f"students reached what is not theirs: {found}"
    open_to_others = [str(p) for p in (root / "gradebook" / "submitted").rglob("*")
                      if not p.is_symlink() and p.lstat().st_mode & 0o022]
    assert not open_to_others, f"collected submissions writable by other accounts: {open_to_others[:5]}"
    assert not stat.S_IMODE(root.stat().st_mode) & 0o077, oct(root.stat().st_mode)
    handed_in = [p for p in (course_dir / "inbound").iterdir() if p.lstat().st_mode & 0o002]
    assert not handed_in, f"submission folders in the exchange writable by everyone: {handed_in}"


def test_a_course_folder_replaced_in_the_exchange_is_refused(course):
    """A student's folder or link in the course's place in the exchange (as nbgrader's ``chmod ugo+rw``
    without a sticky bit let a student make) stops release_assignment and release_feedback with one line,
    and nothing is written through it."""
    root, shared, students, name, _, _, env = course
    exchange = shared / "exchange"
    course_dir = exchange / "advanced-pytorch-internals"
    aside = exchange / "course-aside"
    user, home, _ = students["alice"]
    decoy = shared / "decoy"  # a folder of root's the student points the exchange at (think /etc)
    decoy.mkdir()
    course_dir.rename(aside)
    try:
        os.symlink(decoy, course_dir)
        os.lchown(course_dir, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
        r1 = subprocess.run(["nbgrader", "release_assignment", A, "--force"], cwd=root, env=env,
                            capture_output=True, text=True, timeout=300)
        course_dir.unlink()
        subprocess.run(["mkdir", str(course_dir)], user=user, group=user, check=True)
        r2 = subprocess.run(["nbgrader", "release_feedback", A], cwd=root, env=env,
                            capture_output=True, text=True, timeout=300)
        planted = sorted(str(p) for p in course_dir.rglob("*")) + sorted(str(p) for p in decoy.rglob("*"))
    finally:
        if course_dir.is_symlink():
            course_dir.unlink()
        elif course_dir.exists():
            shutil.rmtree(course_dir)
        aside.rename(course_dir)
    for r, step, why in ((r1, "release_assignment", "symbolic link"), (r2, "release_feedback", f"belongs to '{user}'")):
        lines = [ln for ln in (r.stdout + r.stderr).splitlines() if "exchange:" in ln]
        assert r.returncode != 0 and lines and why in lines[0], f"{step} went on:\n{(r.stdout + r.stderr)[-3000:]}"
        assert "Traceback" not in r.stdout + r.stderr, (r.stdout + r.stderr)[-3000:]
    assert planted == [], f"written through the student's folder or link: {planted}"


def test_the_exchange_is_made_and_checked_by_the_course(tmp_path):
    from course.grading.intake import exchange_root
    ex = tmp_path / "exchange"
    exchange_root.ensure(str(ex), "c")
    modes = {str(p.relative_to(tmp_path)): stat.S_IMODE(p.lstat().st_mode) for p in [ex, *sorted(ex.rglob("*"))]}
    assert modes == {"exchange": 0o1777, "exchange/c": 0o755, "exchange/c/feedback": 0o711,
                     "exchange/c/inbound": 0o3733, "exchange/c/outbound": 0o755}, modes
    (ex / "c").rename(ex / "aside")
    os.symlink(ex / "aside", ex / "c")
    with pytest.raises(exchange_root.NotTheCourses, match=r"^exchange: .*/c is a symbolic link"):
        exchange_root.ensure(str(ex), "c")
    (ex / "c").unlink()
    (ex / "aside").rename(ex / "c")
    (ex / "c" / "inbound").chmod(0o2733)  # as stock nbgrader makes it: mended, the folder being ours
    exchange_root.ensure(str(ex), "c")
    assert stat.S_IMODE((ex / "c" / "inbound").stat().st_mode) == 0o3733
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o777)
    loose.chmod(0o777)  # anyone may rename what is in it: no exchange can be the course's there
    with pytest.raises(exchange_root.NotTheCourses, match="without the sticky bit"):
        exchange_root.ensure(str(loose / "exchange"), "c")


def test_students_config_without_the_helpers_says_so_and_keeps_the_exchange():
    """Where course.student.validate cannot be imported, nbgrader would drop the whole config file (and
    the exchange with it): one line says so and how to fix it, and the exchange setting holds."""
    conf = RELEASE_DIR / "jupyter-hub" / "nbgrader_config.py"
    code = ("import sys; sys.modules['course.student.validate'] = None\n"
            "from traitlets.config import Config\n"
            "c = Config()\n"
            f"exec(compile(open({str(conf)!r}).read(), 'nbgrader_config.py', 'exec'), {{'get_config': lambda: c}})\n"
            "print(c.Exchange.root)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "NBGRADER_EXCHANGE": "/srv/x/exchange"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "/srv/x/exchange", r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "student helpers are not installed" in lines[0] and "pip install" in lines[0], r.stderr


def test_a_course_root_this_account_cannot_close_is_refused_in_one_line():
    """Run by an account that does not own the course root (here nobody, on a folder of root's): one line
    that says how, exit 1, the mode unchanged."""
    if os.geteuid() != 0:
        pytest.skip("needs root: runs as another account")
    from course.grading.class_run import course_root
    tmp_path = Path(tempfile.mkdtemp(prefix="course-root-", dir="/tmp"))  # pytest's own is closed to nobody
    tmp_path.chmod(0o755)
    root = tmp_path / "course"
    root.mkdir(mode=0o755)
    root.chmod(0o755)
    script = tmp_path / "course_root.py"  # stdlib only: runs without the course's package
    shutil.copy(course_root.__file__, script)
    script.chmod(0o644)
    r = subprocess.run(["/usr/bin/python3", str(script), str(root)], capture_output=True, text=True, user="nobody",
                       cwd="/", timeout=60)
    try:
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r
        assert f"run `chmod go-rwx {root}` as root" in r.stderr, r.stderr
        assert stat.S_IMODE(root.stat().st_mode) == 0o755
        assert course_root.make_private(str(root)) and stat.S_IMODE(root.stat().st_mode) == 0o700
    finally:
        shutil.rmtree(tmp_path)


def test_a_process_already_inside_the_course_root_is_shut_out_when_it_closes():
    """Red team, 2026-12-02 (sixth): closing the course root alone (``chmod go-rwx``) shut out only paths that
    pass through it. A student whose shell sat in ``gradebook/`` before ``make setup`` closed the root (a fresh
    clone in a Debian home is 0755 while the venv installs) kept reading by relative paths what was written
    there afterwards: the gradebook, classmates' submissions, feedback and secrets. Every folder under the root
    is now closed too, but a virtual environment's (sandboxes read it as accounts of their own) and the public
    release/, course/ and docs/ (copied for other accounts with their modes: the hub's Jupyter config, a
    sandbox's view of the course package)."""
    if os.geteuid() != 0:
        pytest.skip("needs root: runs as another account")
    from course.grading.class_run import course_root
    base = Path(tempfile.mkdtemp(prefix="course-root-", dir="/tmp"))  # pytest's own is closed to nobody
    try:
        base.chmod(0o755)
        root = base / "course"
        for sub in ("gradebook/submitted", "source", ".venv/lib", "release/jupyter-hub", "course/student"):
            (root / sub).mkdir(parents=True)
        (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
        for p in [root, *root.rglob("*")]:
            p.chmod(0o755)
        parked = ("import os, sys\nos.chdir(sys.argv[1])\nprint('in', flush=True)\nsys.stdin.readline()\n"
                  "for name in ('gradebook.db', 'submitted/bob.txt'):\n    try:\n"
                  "        print(name, 'READ', open(name).read(), flush=True)\n"
                  "    except OSError as exc:\n        print(name, 'REFUSED', exc.errno, flush=True)\n")
        proc = subprocess.Popen(["/usr/bin/python3", "-c", parked, str(root / "gradebook")], user="nobody", cwd="/",
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().strip() == "in"
            assert course_root.make_private(str(root))
            (root / "gradebook" / "gradebook.db").write_text("the class's grades")  # written after the root closed
            (root / "gradebook" / "submitted" / "bob.txt").write_text("bob's submission")
            out, _ = proc.communicate("go\n", timeout=60)
        finally:
            proc.kill()
        assert "READ" not in out and out.count("REFUSED 13") == 2, (
            f"a process of another account whose working folder was {root}/gradebook before the course root was "
            f"closed read what was written there after: {out!r}")
        assert stat.S_IMODE((root / ".venv").stat().st_mode) == 0o755, "sandboxes read the venv as accounts of their own"
        assert stat.S_IMODE((root / ".venv" / "lib").stat().st_mode) == 0o755
        for public in ("release", "release/jupyter-hub", "course", "course/student"):  # copied for others, modes too
            assert stat.S_IMODE((root / public).stat().st_mode) == 0o755, f"{public} was closed"
        assert stat.S_IMODE((root / "source").stat().st_mode) == 0o700
    finally:
        shutil.rmtree(base)


def test_students_config_closes_its_own_submission_folder_and_follows_no_link(tmp_path, monkeypatch):
    """The students' config makes the folder submit just made 0750 (nbgrader's is 0777), through a descriptor:
    a name in the inbound that is a link is left alone, and what it points at keeps its mode."""
    from nbgrader.exchange.default.submit import ExchangeSubmit

    monkeypatch.setattr(ExchangeSubmit, "copy_files", lambda self: None)  # the copy itself is nbgrader's
    monkeypatch.setattr(ExchangeSubmit, "_course_closed", False, raising=False)
    code = (REPO_ROOT / "course" / "student_kit" / "nbgrader_config.py").read_text()
    exec(compile(code, "nbgrader_config.py", "exec"), {"get_config": lambda: __import__("traitlets").config.Config()})
    inbound = tmp_path / "inbound"
    (inbound / "own").mkdir(parents=True)
    (inbound / "own").chmod(0o777)
    target = tmp_path / "elsewhere"
    target.mkdir()
    target.chmod(0o777)
    (inbound / "planted").symlink_to(target)
    for name in ("own", "planted"):
        sub = ExchangeSubmit.__new__(ExchangeSubmit)
        sub.__dict__.update(inbound_path=str(inbound), assignment_filename=name)
        ExchangeSubmit.copy_files(sub)
    assert stat.S_IMODE((inbound / "own").stat().st_mode) == 0o750
    assert stat.S_IMODE(target.stat().st_mode) == 0o777
