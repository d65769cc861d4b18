"""The sandbox is an allow-list: a submission sees the operating system, Python and the course
package, and nothing else on the machine (not this repository, not a sibling copy of the course,
not home folders), with no network and only its own folder writable."""
import os
import subprocess
import sys
import textwrap

import pytest

from course import REPO_ROOT, sandbox

pytestmark = pytest.mark.skipif(sandbox.probe() is not None, reason=f"no sandbox here: {sandbox.probe()}")

ALLOWED_TOP = {"usr", "etc", "sys", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "dev", "proc", "tmp"}


def inside(code: str, workdir) -> dict:
    argv = sandbox.bwrap_argv(str(workdir)) + [sys.executable, "-I", "-c", textwrap.dedent(code)]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return eval(r.stdout.strip().splitlines()[-1])


def test_only_system_python_and_course_package_visible(tmp_path):
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
                   home=ls(os.path.expanduser("~")), cwd=os.getcwd()))
    """, tmp_path)
    python_tops = {p.strip("/").split("/")[0] for p in sandbox.visible_paths()}
    assert set(seen["top"]) <= ALLOWED_TOP | python_tops, seen["top"]
    # Only the folders bwrap had to create for its mounts may show up: nothing of the real disk.
    mounts = sandbox.visible_paths() + ["/tmp/work"]
    made = lambda d: {p[len(d) + 1:].split("/")[0] for p in mounts if p.startswith(d.rstrip("/") + "/")}
    assert set(seen["repo"] or []) <= made(str(REPO_ROOT)), f"course folder visible: {seen['repo']}"
    assert set(seen["parent"] or []) <= made(str(REPO_ROOT.parent)), \
        f"siblings of the course folder visible: {seen['parent']}"
    assert not seen["net"], "network reachable from the sandbox"


def test_work_folder_is_the_only_writable_place(tmp_path):
    seen = inside(f"""
        import os
        ok = {{}}
        for p in ("/usr/x", {str(REPO_ROOT / 'course' / 'x')!r}, "/etc/x", "here.txt"):
            try:
                open(p, "w").write("x"); ok[p] = True
            except OSError:
                ok[p] = False
        print(ok)
    """, tmp_path)
    assert seen.pop("here.txt") and (tmp_path / "here.txt").exists()
    assert not any(seen.values()), seen


def test_extra_hidden_paths_are_masked(tmp_path, monkeypatch):
    import sysconfig
    inner = os.path.join(sysconfig.get_paths()["purelib"], "pip")  # inside a visible folder
    monkeypatch.setenv("COURSE_SANDBOX_HIDE", inner)
    seen = inside(f"import os; print(os.listdir({inner!r}))", tmp_path)
    assert seen == []
