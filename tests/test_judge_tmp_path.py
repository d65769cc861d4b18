"""Twelfth red team: a judge session runs as root on the grading machine, and a hidden check that takes pytest's
``tmp_path`` (15-02's ``test_unpadding_recovers_every_sequence``) made pytest use ``<tmp>/pytest-of-root``, a name
in the shared /tmp that any account can make first. pytest then refuses it ("not owned by the current user"), the
check's setup raises, and the judge records a failed check: that check failed for every student of the class, with
nothing wrong in their code. A judge session now keeps pytest's temporary folders in its own folder (its working
folder, a root-only ``mkdtemp``: tests/conftest.py). Run in a mount namespace with a private /tmp, as a judge
session is (this repository's conftest and the judge's plugin, ``--notebook``, COURSE_JUDGE): about 3 s."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from course import REPO_ROOT
from tests import private_tmp

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a private /tmp needs root (unshare, mount)")

SESSION = r"""
import json, os, subprocess, sys, tempfile
PRIVATE_TMP
os.mkdir("/tmp/pytest-of-root", 0o755)
os.chown("/tmp/pytest-of-root", 65534, 65534)  # made first by another account
work = tempfile.mkdtemp()  # the judge session's own folder, as run_suite's
with open(os.path.join(work, "test_uses_tmp_path.py"), "w") as fh:
    fh.write("def test_tmp(tmp_path):\n    (tmp_path / 'x').write_text('ok')\n")
open(os.path.join(work, "notebook.ipynb"), "w").write("{}")
env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.join(REPO, "tests"), REPO]), "COURSE_JUDGE": "1"}
env.pop("PYTEST_DEBUG_TEMPROOT", None)
r = subprocess.run([sys.executable, "-m", "pytest", os.path.join(work, "test_uses_tmp_path.py"), "-q",
                    "-p", "no:cacheprovider", "-p", "conftest", "--notebook", os.path.join(work, "notebook.ipynb"),
                    "--rootdir", work, "-o", "addopts="], cwd=work, env=env, capture_output=True, text=True, timeout=120)
planted = sorted(os.listdir("/tmp/pytest-of-root"))
print(json.dumps({"rc": r.returncode, "planted": planted, "tail": (r.stdout + r.stderr)[-800:]}))
"""


def test_a_judge_sessions_tmp_path_is_not_the_shared_tmps():
    code = SESSION.replace("PRIVATE_TMP", private_tmp.PRELUDE).replace("REPO", repr(str(REPO_ROOT)))
    r = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, "-I", "-c",
                        textwrap.dedent(code)], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["rc"] == 0, ("a judge session's check that takes tmp_path failed when another account had made "
                            f"/tmp/pytest-of-root first (every student's check would fail):\n{out['tail']}")
    assert not out["planted"], f"the judge session wrote into another account's /tmp/pytest-of-root: {out['planted']}"
