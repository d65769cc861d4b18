"""Children of one template (course/sandbox/template.py) are worlds of their own: two alive at once cannot
meet (signals, /proc, files, sockets, locks, IPC), and a child finds nothing an earlier one left, in its
memory (the warm interpreter they both forked from), files or kernel objects. Each child here runs its code
in the template's own interpreter (the ``python`` payload), as the kernel and the judge's zygote do; the
isolation tests of bubblewrap's sandboxes run against exec'd children too (tests/sandbox_launchers.py)."""
import json
import os
import secrets
import signal
import subprocess
import sys
import textwrap

import pytest

from course.sandbox import procs, template

pytestmark = pytest.mark.skipif(template.usable() is not None, reason=f"no template here: {template.usable()}")


@pytest.fixture(scope="module")
def tpl():
    t = template.Template()
    yield t
    t.close()


def run(tpl, code: str, *, stdin=subprocess.DEVNULL, wait=True, **kw):
    """A child running ``code`` in the template's interpreter; its stdout (text) when ``wait``."""
    r_out, w_out = os.pipe()
    r_in, w_in = os.pipe()
    child = tpl.spawn(template.request(payload="python", code=textwrap.dedent(code), **kw), [r_in, w_out, w_out])
    os.close(r_in)
    os.close(w_out)
    out, inp = os.fdopen(r_out, "r"), os.fdopen(w_in, "w")
    if not wait:
        return child, out, inp
    inp.close()
    text = out.read()
    out.close()
    assert child.wait(120) == 0, text
    child.close()
    return text


MAKER = r"""
import ctypes, fcntl, json, os, signal, socket, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
hits = []
signal.signal(signal.SIGUSR1, lambda *a: hits.append(1))
out = {"uid": os.getuid(), "pid": os.getpid()}
s = socket.socket(socket.AF_UNIX); s.bind("\0course-template-meet"); s.listen(1)
p = socket.socket(socket.AF_UNIX); p.bind("/tmp/meet.sock"); p.listen(1)
libc.mq_open.restype = ctypes.c_int
out["mq"] = libc.mq_open(b"/course-template-meet", os.O_CREAT | os.O_RDWR, 0o666, None)
out["shm"] = libc.shmget(0x434F5254, 4096, 0o1000 | 0o666)
for folder in (os.environ["HOME"], "/tmp", "/dev/shm"):
    open(os.path.join(folder, "meet"), "w").write("A")
f = os.open(sys.executable, os.O_RDONLY)
for i, b in enumerate(b"HELLO"):
    fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 1000 * i + b)
own = open("/tmp/meet.lock", "w"); fcntl.flock(own, fcntl.LOCK_EX)
print(json.dumps(out), flush=True)
sys.stdin.read()
print(json.dumps({"signals": len(hits)}), flush=True)
"""

SEEKER = r"""
import ctypes, errno, fcntl, json, os, signal, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
host_pids = json.loads(sys.argv[1])
out = {"uid": os.getuid()}
def err(fn):
    try:
        fn(); return 0
    except OSError as exc:
        return exc.errno
out["kill"] = [err(lambda p=p: os.kill(p, signal.SIGUSR1)) for p in host_pids]
out["kill_all"] = err(lambda: os.kill(-1, 0))
out["procs"] = sorted({os.stat("/proc/" + p).st_uid for p in os.listdir("/proc") if p.isdigit()} - {os.getuid()})
out["abstract"] = err(lambda: socket.socket(socket.AF_UNIX).connect("\0course-template-meet"))
out["path_socket"] = os.path.exists("/tmp/meet.sock")
libc.mq_open.restype = ctypes.c_int
out["mq"] = libc.mq_open(b"/course-template-meet", os.O_RDWR, 0, None) >= 0
out["shm"] = libc.shmget(0x434F5254, 0, 0) >= 0
out["files"] = [d for d in (os.environ["HOME"], "/tmp", "/dev/shm") if os.path.exists(os.path.join(d, "meet"))]
f = os.open(sys.executable, os.O_RDONLY)
seen = ""
for i in range(5):
    for b in range(256):
        r = fcntl.fcntl(f, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 1000 * i + b, 1, 0))
        if struct.unpack("hhqqi", r)[0] != fcntl.F_UNLCK:
            seen += chr(b)
out["locks"] = seen
print(json.dumps(out), flush=True)
"""


def test_two_children_of_one_template_cannot_meet(tpl):
    maker, out, inp = run(tpl, MAKER, wait=False)
    try:
        made = json.loads(out.readline() or "null")
        assert made and made["mq"] >= 0 and made["shm"] >= 0, made
        tree = procs.descendants(maker.pid)  # the maker's sandbox as the host sees it: B, then its payload
        found = json.loads(run(tpl, SEEKER, argv=["seeker", json.dumps(tree + [maker.pid])]).strip().splitlines()[-1])
        inp.close()
        after = json.loads(out.readline())
    finally:
        out.close()
        maker.wait(60)
        maker.close()
    assert made["uid"] != found["uid"], "two children ran as one uid"
    assert set(found["kill"]) == {3}, f"the second child could signal the first's processes: {found['kill']}"  # ESRCH
    assert after["signals"] == 0
    assert not found["procs"], f"the second child saw processes of uids {found['procs']}"
    assert found["abstract"] == 111, "the second child reached the first one's abstract socket"  # ECONNREFUSED
    assert not found["path_socket"] and not found["files"], found
    assert not found["mq"] and not found["shm"], "the second child opened the first one's IPC objects"
    assert "HELLO" not in found["locks"], "a lock on the Python binary carried a message between two children"


LEAVER = r"""
import json, os, sys, torch
mark = os.urandom(32)
KEEP = [mark * 4, bytearray(mark), mark.hex()]
torch.course_left_behind = torch.frombuffer(bytearray(mark * 64), dtype=torch.uint8)
sys.modules["course_left_behind"] = KEEP
os.environ["COURSE_LEFT_BEHIND"] = mark.hex()
for folder in (os.environ["HOME"], "/tmp", "/dev/shm"):
    open(os.path.join(folder, "left-behind"), "w").write(mark.hex())
print(mark.hex(), flush=True)
"""

FINDER = r"""
import json, os, re, sys, torch
a, b = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])  # the mark's two halves, never joined here
ha, hb = sys.argv[1].encode(), sys.argv[2].encode()
hits = 0
with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
    for line in maps:
        f = line.split()
        if "w" not in f[1] and not (len(f) > 5 and f[5] in ("[heap]", "[stack]")):
            continue
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        try:
            mem.seek(lo); data = mem.read(hi - lo)
        except (OSError, ValueError, OverflowError):
            continue
        for head, tail in ((a, b), (ha, hb)):
            i = data.find(head)
            while i >= 0:
                hits += data[i + len(head):i + len(head) + len(tail)] == tail
                i = data.find(head, i + 1)
out = {"memory_hits": hits, "torch_attr": hasattr(torch, "course_left_behind"),
       "module": "course_left_behind" in sys.modules, "env": "COURSE_LEFT_BEHIND" in os.environ,
       "files": [d for d in (os.environ["HOME"], "/tmp", "/dev/shm") if os.path.exists(os.path.join(d, "left-behind"))],
       "fds": sorted(int(x) for x in os.listdir("/proc/self/fd"))}
print(json.dumps(out), flush=True)
"""


def test_a_child_finds_nothing_of_an_earlier_child(tpl):
    mark = run(tpl, LEAVER).strip().splitlines()[-1]
    assert len(mark) == 64
    half = len(mark) // 2
    found = json.loads(run(tpl, FINDER, argv=["finder", mark[:half], mark[half:]]).strip().splitlines()[-1])
    assert found["memory_hits"] == 0, "the earlier child's mark is in the next child's memory"
    assert not found["torch_attr"] and not found["module"] and not found["env"], found
    assert not found["files"], found
    # the template's descriptors (its listener, its log, the request's connection) are not the child's
    assert len(found["fds"]) <= 4 and {0, 1, 2} <= set(found["fds"]), found["fds"]


def test_control_the_finder_sees_a_mark_in_its_own_memory(tpl):
    """The search above can find: a child that holds the mark itself is found."""
    mark = secrets.token_hex(32)
    half = len(mark) // 2
    code = "import os\nKEEP = bytes.fromhex(os.environ['MARK']) * 3\n" + FINDER
    env = {**template.request(payload="python")["env"], "MARK": mark}
    found = json.loads(run(tpl, code, argv=["finder", mark[:half], mark[half:]], env=env).strip().splitlines()[-1])
    assert found["memory_hits"] >= 3


def test_the_template_has_no_thread_and_never_runs_a_childs_code(tpl):
    """The template forks only without threads (OpenBLAS's pool is kept from starting), and what a child
    does (a thread of its own, a module changed, an exit) never reaches it: the next child starts clean."""
    task = os.listdir(f"/proc/{tpl.proc.pid}/task")
    assert len(task) == 1, task
    run(tpl, "import threading, torch, time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
             "torch.set_num_threads(1); torch.ones(3).add_(1); torch.changed_by_child = 1\n")
    assert len(os.listdir(f"/proc/{tpl.proc.pid}/task")) == 1
    out = run(tpl, "import torch, threading\nprint(hasattr(torch, 'changed_by_child'), threading.active_count())\n")
    assert out.split() == ["False", "1"], out


def test_a_killed_requester_ends_the_sandbox(tpl):
    """The connection to the template is the sandbox's lifeline: the requester gone, the sandbox goes."""
    child, out, inp = run(tpl, "import sys, time\nprint('up', flush=True)\ntime.sleep(300)\n", wait=False)
    assert out.readline().strip() == "up"
    tree = [child.pid] + procs.descendants(child.pid)
    child.close()  # as when the requester exits
    for _ in range(100):
        if not any(procs.state(p) not in ("Z", "X") for p in tree):
            break
        import time
        time.sleep(0.1)
    assert not [p for p in tree if procs.state(p) not in ("Z", "X")], "the sandbox outlived its requester"
    out.close()
    inp.close()


HOLD = "import sys, time\nb = bytearray(160 * 2**20)\nb[::4096] = b'x' * len(b[::4096])\nprint('held', flush=True)\ntime.sleep(20)\n"


def test_a_childs_memory_counts_in_its_requesters_tree_and_the_watch_stops_it(tpl, monkeypatch):
    """The polling watch (the second line behind cgroups, the only one without them) sees a template's
    sandbox as part of the tree of the process that asked for it, as it sees a bwrap child."""
    monkeypatch.setenv(template.SOCKET_ENV, tpl.path)
    child, out, inp = run(tpl, HOLD, wait=False)
    try:
        assert out.readline().strip() == "held"
        tree = procs.TreeRss(os.getpid(), rescan=0)
        assert tree.bytes() - procs.rss(os.getpid()) >= 150 * 2**20, "the child's memory is not in its requester's tree"
        why = procs.watch(lambda: child, 100 * 2**20, 1024, 0.1)
        assert why == "memory" and child.wait(30) != 0
    finally:
        out.close()
        inp.close()
        child.kill()
        child.close()


def test_children_join_their_cgroups_and_share_their_workers_memory_slice(tpl, monkeypatch):
    """Two children of one worker, each in its own 1 GiB group, together hold no more than the worker's
    slice (256 MiB): A joins the group the requester made before the child's namespaces exist."""
    from course.sandbox import cgroup
    sl = cgroup.Slice.create("tplmem", 1.0, 256 * 2**20)
    if sl is None or not sl.memory_capped():
        if sl is not None:
            sl.remove()
        pytest.skip("no memory controller for a slice here")
    monkeypatch.setenv(cgroup.SLICE_ENV, sl.name)
    groups = [cgroup.Group.create(f"tplmem{k}", 2**30, 64) for k in range(2)]
    children = []
    try:
        assert all(g is not None for g in groups)
        first = run(tpl, HOLD, wait=False, group=groups[0])
        children.append(first)
        assert first[1].readline().strip() == "held"
        assert first[0].pid in groups[0].pids(), "the sandbox did not join its cgroup"
        second = run(tpl, HOLD, wait=False, group=groups[1])
        children.append(second)
        codes = []
        for child, out, inp in children:
            inp.close()
            out.read()
            codes.append(child.wait(60))
        assert codes.count(0) <= 1, "both children held 160 MiB inside a 256 MiB worker slice"
        assert any(g.oom_killed() for g in groups), codes
    finally:
        for child, out, inp in children:
            child.kill()
            child.close()
            out.close()
        for g in groups:
            if g is not None:
                g.remove()
        sl.remove()


def test_a_workers_template_preloads_the_torch_modules_its_assignment_imports():
    """The grading worker's template imports what the assignment's judge workers would import ahead (15-01:
    gradcheck's sympy, through symbolic_shapes), so neither its kernels nor its zygotes pay for it per
    submission; never a package that reads per-user configuration as it is imported (tqdm), except matplotlib,
    imported with a folder of the template's own and re-pointed in each child (the test below)."""
    from course.grading.class_run.runner import _template_preload
    pre = _template_preload("15-01")
    assert "torch.fx.experimental.symbolic_shapes" in pre and set(template.PRELOAD) <= set(pre)
    assert not [m for m in _template_preload("15-02") if not m.startswith(("torch", "course.", "IPython", "ipykernel",
                                                                             "numpy", "matplotlib."))]
    assert _template_preload(None) == template.PRELOAD


def test_a_child_finds_matplotlib_as_a_fresh_import_would(tpl):
    """The template imports pyplot once (with a configuration folder of its own); a child's matplotlib looks
    for its configuration and cache in the child's MPLCONFIGDIR and uses the child's MPLBACKEND, and the
    template's folder is nowhere in the child's world"""
    text = run(tpl, """
        import json, os, sys
        import matplotlib, matplotlib.pyplot as plt
        from matplotlib import texmanager
        fig = plt.figure(); fig.add_subplot().plot([0, 1]); fig.savefig("/tmp/work/p.png"); plt.close(fig)
        print(json.dumps({"preloaded": "matplotlib.pyplot" in sys.modules, "config": matplotlib.get_configdir(),
                          "cache": matplotlib.get_cachedir(), "tex": str(texmanager.TexManager._cache_dir),
                          "backend": plt.get_backend(), "png": os.path.getsize("/tmp/work/p.png") > 0,
                          "env": os.environ.get("MPLCONFIGDIR")}))
    """)
    got = json.loads(text.strip().splitlines()[-1])
    assert got["preloaded"] and got["png"]
    assert got["config"] == got["cache"] == got["env"] == "/tmp/.matplotlib", got
    assert got["tex"] == "/tmp/.matplotlib/tex.cache"
    assert got["backend"].lower() == "agg"
