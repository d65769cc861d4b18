"""Twelfth red team: the seccomp program every bubblewrap sandbox loads is kept in a file of a name anyone can
compute (``<tmp>/course-seccomp.<sha256 of the program>.<euid>.bpf``, course/sandbox/seccomp.py), and root opened
that name for reading before checking what it is. A FIFO another account made there first (the folder is /tmp,
which every account may write) held that open forever: ``seccomp.program_file()`` never returned, and with it
``sandbox.probe()``, which every judge session and the judge server's spare zygote ask before a worker starts, and
every bubblewrap sandbox (measured: no return within 10 s; grading stopped for the class, as long as the FIFO
stays).

Run in a mount namespace of its own with a private /tmp, so nothing is planted in the machine's /tmp: about 1 s."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from course import REPO_ROOT
from tests import private_tmp

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a private /tmp needs root (unshare, mount)")

PLANT_AND_ASK = r"""
import hashlib, json, os, stat, subprocess, sys, tempfile, threading
sys.path.insert(0, REPO)
PRIVATE_TMP
tempfile.tempdir = "/tmp"
from course.sandbox import seccomp
data = seccomp.program()
planted = os.path.join("/tmp", f"course-seccomp.{hashlib.sha256(data).hexdigest()[:24]}.{os.geteuid()}.bpf")
os.mkfifo(planted, 0o666)
os.lchown(planted, 65534, 65534)  # another account's, as a student would make it
got = {}
def ask():
    path = seccomp.program_file()
    st = os.lstat(path)
    got.update(path=path, regular=stat.S_ISREG(st.st_mode), uid=st.st_uid, mode=stat.S_IMODE(st.st_mode),
               same=open(path, "rb").read() == data)
th = threading.Thread(target=ask, daemon=True)
th.start()
th.join(10)
print(json.dumps({"returned": not th.is_alive(), **got}), flush=True)
os._exit(0)
"""


def test_a_fifo_planted_at_the_filters_name_does_not_hold_the_grader():
    code = PLANT_AND_ASK.replace("PRIVATE_TMP", private_tmp.PRELUDE).replace("REPO", repr(str(REPO_ROOT)))
    r = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, "-I", "-c",
                        textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["returned"], ("seccomp.program_file() did not return within 10 s: a FIFO another account made at "
                             "the filter file's name held root's open, and every sandbox with it")
    assert out["regular"] and out["uid"] == os.geteuid() and not out["mode"] & 0o022 and out["same"], (
        f"seccomp.program_file() returned {out['path']}, which is not a file of the grader's holding the filter: {out}")
