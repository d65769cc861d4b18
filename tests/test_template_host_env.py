"""Twelfth red team: the template (course/sandbox/template.py) is a root process on the HOST, yet it ran with the
sandbox's environment, whose HOME, TMPDIR, XDG_CONFIG_HOME, XDG_CACHE_HOME and IPYTHONDIR name folders of the
host's shared /tmp that any account may create first (/tmp/work, /tmp/.config, ...). What it preloads reads
per-user configuration there as root: matplotlib runs `fc-list`, which read a `fonts.conf` another account planted
in /tmp/.config/fontconfig and, told so by it, scanned that account's font folder and wrote its cache files as root
into a root-only folder the planted file named (a folder made, two files written: 3.8 kB and CACHEDIR.TAG).

The test runs in a mount namespace of its own with a private /tmp, so nothing is planted in the machine's /tmp,
and preloads only matplotlib (what runs fc-list): about 3 s."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from course import REPO_ROOT
from tests import private_tmp
from course.sandbox import template

pytestmark = pytest.mark.skipif(template.usable() is not None, reason=f"no template here: {template.usable()}")

PLANT_AND_START = r"""
import json, os, shutil, subprocess, sys
sys.path.insert(0, REPO)
PRIVATE_TMP
import matplotlib
font = os.path.join(matplotlib.get_data_path(), "fonts", "ttf", "DejaVuSans.ttf")
target = "/tmp/root-only"                      # stands for the course root: root's, 0700
os.mkdir(target, 0o700)
for folder in ("/tmp/.config/fontconfig", "/tmp/theirs", "/tmp/work/.fonts"):
    os.makedirs(folder)
shutil.copy(font, "/tmp/theirs/x.ttf")
shutil.copy(font, "/tmp/work/.fonts/y.ttf")
with open("/tmp/.config/fontconfig/fonts.conf", "w") as fh:
    fh.write('<?xml version="1.0"?>\n<fontconfig><dir>/tmp/theirs</dir>'
             '<cachedir>/tmp/root-only/planted</cachedir></fontconfig>\n')
for planted in ("/tmp/.config", "/tmp/theirs", "/tmp/work"):  # another account's, as a student would make them
    for d, dirs, files in os.walk(planted):
        for name in [d] + [os.path.join(d, f) for f in dirs + files]:
            os.lchown(name, 65534, 65534)
from course.sandbox import template
t = template.Template(preload=("matplotlib.pyplot",))
env = dict(line.split("=", 1) for line in open(f"/proc/{t.proc.pid}/environ").read().split("\0") if "=" in line)
folder = t.folder
t.close()
written = sorted(os.path.join(d, f) for d, _, files in os.walk(target) for f in files)
made = sorted(os.path.join(d, x) for d, dirs, _ in os.walk(target) for x in dirs)
print(json.dumps({"written": written, "made": made, "env": env, "folder": folder}))
"""

PATH_VARIABLES = ("HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "IPYTHONDIR", "MPLCONFIGDIR")


def test_the_template_reads_no_configuration_another_account_planted_in_the_hosts_tmp():
    code = PLANT_AND_START.replace("PRIVATE_TMP", private_tmp.PRELUDE).replace("REPO", repr(str(REPO_ROOT)))
    r = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, "-I", "-c",
                        textwrap.dedent(code)], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert not out["written"] and not out["made"], (
        "a fonts.conf planted by another account in /tmp/.config/fontconfig made the template (root) write "
        f"into a root-only folder it named: made {out['made']}, wrote {out['written']}")
    outside = {k: out["env"].get(k) for k in PATH_VARIABLES
               if not (out["env"].get(k) or "").startswith(out["folder"].rstrip("/") + "/")}
    assert not outside, (f"the template (root, on the host) runs with {outside}: folders of the host that are "
                         f"not its own {out['folder']} (other accounts may make them first)")
