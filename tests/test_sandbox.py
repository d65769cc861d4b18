"""The sandbox is an allow-list: a submission sees the operating system, Python and the course
package, and nothing else on the machine (not this repository, not a sibling copy of the course,
not home folders), with no network, an allow-listed environment, and writable only in private,
size-capped tmpfs mounts that the host never sees."""
import os
import subprocess
import sys
import textwrap

import pytest

from course import REPO_ROOT, sandbox

from tests.sandbox_launchers import _template, bwrap_only, launcher  # noqa: F401  (each test: bwrap and a template's child)

BWRAP = sandbox.bwrap_argv  # bubblewrap's own, whichever launcher a test runs under
pytestmark = [pytest.mark.skipif(sandbox.probe() is not None, reason=f"no sandbox here: {sandbox.probe()}"),
              pytest.mark.usefixtures("launcher")]

ALLOWED_TOP = {"usr", "etc", "sys", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "dev", "proc", "tmp"}


def inside(code: str, workdir=None, **kw) -> dict:
    argv = sandbox.bwrap_argv(**kw) + [sys.executable, "-I", "-c", textwrap.dedent(code)]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return eval(r.stdout.strip().splitlines()[-1])


def test_only_system_python_and_course_package_visible(tmp_path):
    judge_cache = REPO_ROOT / "gradebook" / ".judge-cache"  # the hidden suites' own (15-05's exported programs)
    judge_cache.mkdir(parents=True, exist_ok=True)
    seen = inside(f"""
        import os, socket
        def ls(p):
            try: return sorted(os.listdir(p))
            except OSError: return None
        try:
            socket.create_connection(("1.1.1.1", 80), timeout=2).close(); net = True
        except OSError:
            net = False
        print(dict(top=ls("/"), repo=ls({str(REPO_ROOT)!r}), parent=ls({str(REPO_ROOT.parent)!r}), net=net,
                   home=ls(os.path.expanduser("~")), cwd=os.getcwd(), cache=ls({str(judge_cache)!r})))
    """)
    python_tops = {p.strip("/").split("/")[0] for p in sandbox.visible_paths()}
    assert set(seen["top"]) <= ALLOWED_TOP | python_tops, seen["top"]
    # Only the folders bwrap had to create for its mounts may show up: nothing of the real disk.
    mounts = sandbox.visible_paths() + ["/tmp/work"]
    made = lambda d: {p[len(d) + 1:].split("/")[0] for p in mounts if p.startswith(d.rstrip("/") + "/")}
    assert set(seen["repo"] or []) <= made(str(REPO_ROOT)), f"course folder visible: {seen['repo']}"
    assert set(seen["parent"] or []) <= made(str(REPO_ROOT.parent)), \
        f"siblings of the course folder visible: {seen['parent']}"
    assert not seen["net"], "network reachable from the sandbox"
    assert seen["cache"] is None, f"the judge's cache visible: {seen['cache']}"


def test_only_private_tmpfs_is_writable(tmp_path):
    seen = inside(f"""
        import os
        ok = {{}}
        for p in ("/usr/x", {str(REPO_ROOT / 'course' / 'x')!r}, "/etc/x", "/sys/x", "here.txt", "/dev/shm/x"):
            try:
                open(p, "w").write("x"); ok[p] = True
            except OSError:
                ok[p] = False
        ok["cwd"] = os.getcwd()
        print(ok)
    """)
    assert seen.pop("cwd") == sandbox.WORKDIR
    assert seen.pop("here.txt") and seen.pop("/dev/shm/x")
    assert not any(seen.values()), seen
    assert not list(tmp_path.iterdir())


def test_tmpfs_is_capped():
    seen = inside("""
        out = {}
        for p in ("/tmp/work/big", "/dev/shm/big"):
            try:
                with open(p, "wb") as fh:
                    for _ in range(40):
                        fh.write(b"0" * 2**20)
                out[p] = "written"
            except OSError as e:
                out[p] = e.errno
        print(out)
    """, tmp_mb=16, shm_mb=8)
    assert seen == {"/tmp/work/big": 28, "/dev/shm/big": 28}, seen  # ENOSPC


def test_environment_is_an_allow_list(monkeypatch):
    monkeypatch.setenv("COURSE_SEED_SALT", "12345")
    monkeypatch.setenv("JUPYTER_PATH", "/somewhere/secret")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    seen = inside("import os; print(dict(os.environ))")
    assert "COURSE_SEED_SALT" not in seen and "JUPYTER_PATH" not in seen, sorted(seen)
    assert not any("secret" in v for v in seen.values())
    assert seen["HOME"] == sandbox.WORKDIR and seen["LC_ALL"] == "C.UTF-8"


def test_extra_hidden_paths_are_masked(tmp_path, monkeypatch):
    import sysconfig
    inner = os.path.join(sysconfig.get_paths()["purelib"], "pip")  # inside a visible folder
    monkeypatch.setenv("COURSE_SANDBOX_HIDE", inner)
    seen = inside(f"import os; print(os.listdir({inner!r}))")
    assert seen == []


def test_etc_is_an_allow_list_and_root_is_dropped():
    """Only the /etc files Python and PyTorch read are visible; graded as root, the code inside runs as
    the sandbox's own account with no capabilities, so even a root-only file made visible stays shut."""
    seen = inside("""
        import os
        caps = [ln.split()[1] for ln in open("/proc/self/status") if ln.startswith(("CapEff", "CapPrm"))]
        print(dict(etc=sorted(os.listdir("/etc")), uid=os.getuid(), caps=caps))
    """, ro_files=[("/etc/shadow", "/run/shadow")] if os.path.exists("/etc/shadow") and os.geteuid() == 0 else [])
    assert set(seen["etc"]) <= set(sandbox.ETC_ALLOW) | {"ssl"}, seen["etc"]
    assert "shadow" not in seen["etc"] and "ssh" not in seen["etc"]
    assert all(int(c, 16) == 0 for c in seen["caps"]), seen["caps"]
    if os.geteuid() == 0:
        lo, hi = sandbox.uid_range()
        assert lo <= seen["uid"] <= hi, seen["uid"]
        r = subprocess.run(sandbox.bwrap_argv(ro_files=[("/etc/shadow", "/run/shadow")]) + ["/bin/cat", "/run/shadow"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and "Permission denied" in r.stderr, r.stdout[:80]


def test_course_package_shows_only_the_student_package_and_the_worker():
    seen = inside(f"""
        import os, sys
        sys.path.insert(0, {str(REPO_ROOT)!r})
        import course.student.checks, course.student.hidden, course.judge.worker, course.judge.probelib
        found = sorted(os.path.relpath(os.path.join(d, f), {str(REPO_ROOT / 'course')!r})
                       for d, _, fs in os.walk({str(REPO_ROOT / 'course')!r}) for f in fs if f.endswith(".py"))
        missing = []
        for name in ("course.grading", "course.authoring", "course.sandbox", "course.judge.adapter",
                     "course.judge.pytest_plugin", "course.judge.inprocess", "course.notebook"):
            try:
                __import__(name)
            except ImportError:
                missing.append(name)
        try:
            open({str(REPO_ROOT / 'course' / 'judge' / 'x.py')!r}, "w")
            writable = True
        except OSError:
            writable = False
        print(dict(found=found, missing=missing, writable=writable))
    """)
    student = sorted(f"student/{f}" for f in os.listdir(REPO_ROOT / "course" / "student") if f.endswith(".py"))
    assert seen["found"] == sorted(["__init__.py", "plain.py", "judge/__init__.py", "judge/forkserver.py",
                                    "judge/worker.py", "judge/pristine.py", "judge/probelib.py", "judge/seal/__init__.py",
                                    "judge/seal/code.py", "wire.py", *student]), seen["found"]
    assert len(seen["missing"]) == 7, f"the grader's own code is importable in the sandbox: {seen['missing']}"
    assert not seen["writable"], "course/ is writable inside the sandbox"


def test_the_course_view_is_readable_whatever_the_checkouts_modes(tmp_path, monkeypatch):
    """The view of ``course/`` a sandbox reads as an account of its own is copied from the checkout: copytree
    kept a folder's mode and copyfile created under the grader's umask, so a checkout whose folders are closed
    to other accounts (or an instructor's umask 077) left ``course/student`` unreadable in every sandbox.
    Found by the sixth red team (2026-12-02), when its first fix closed every folder under the course root."""
    import shutil
    fake = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "course", fake / "course", ignore=shutil.ignore_patterns("__pycache__"))
    for here, dirs, files in os.walk(fake):
        for name in dirs:
            os.chmod(os.path.join(here, name), 0o700)
        for name in files:
            os.chmod(os.path.join(here, name), 0o600)
    monkeypatch.setattr(sandbox, "REPO_ROOT", fake)
    old = os.umask(0o077)
    try:
        view = sandbox.course_view(str(tmp_path / "view"))
    finally:
        os.umask(old)
    closed = [os.path.relpath(os.path.join(here, n), view) for here, dirs, files in os.walk(view) for n in dirs + files
              if not os.stat(os.path.join(here, n)).st_mode & 0o004]
    assert not closed, f"not readable by other accounts in the course view: {closed[:5]}"
