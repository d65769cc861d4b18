"""Students' own tools on a machine the class shares (red team 10), as two real accounts.

The victim runs the server their JupyterLab runs on, with the students' settings as the README's class
blocks publish them (JUPYTER_CONFIG_PATH: release/jupyter-hub, read-only) and a Python that sees what a
student installs. The classmate, another account, tries to read the victim's cells through the kernel's
channels and to own the folder torch.compile caches the victim's generated code in.
"""
import json
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from course import RELEASE_DIR
from tests.accounts import student_accounts
from tests.test_exchange import login_env, student_python

# Run as the classmate: subscribe to every TCP port the victim's account listens on (/proc/net/tcp
# names each socket's owner) and report whether a message holding the marker comes by.
LISTEN = r"""
import sys, time, zmq
uid, marker, seconds = int(sys.argv[1]), sys.argv[2].encode(), float(sys.argv[3])
ports = [int(f[1].split(":")[1], 16) for f in (l.split() for l in open("/proc/net/tcp").readlines()[1:])
         if f[3] == "0A" and int(f[7]) == uid]
ctx = zmq.Context()
subs = []
for p in ports:
    s = ctx.socket(zmq.SUB); s.setsockopt(zmq.SUBSCRIBE, b""); s.connect(f"tcp://127.0.0.1:{p}"); subs.append(s)
print("ready", ports, flush=True)
poller = zmq.Poller()
for s in subs:
    poller.register(s, zmq.POLLIN)
end = time.monotonic() + seconds
while time.monotonic() < end:
    for s, _ in poller.poll(200):
        if any(marker in part for part in s.recv_multipart()):
            print("SEEN", flush=True); sys.exit(0)
print("nothing", flush=True)
"""


@pytest.fixture(scope="module")
def two_students():
    with student_accounts("shared-machine", ("victim", "classmate")) as (base, names):
        shared = base / "jupyter"  # the README's /srv/nbgrader/jupyter: a copy, read-only for all
        shutil.copytree(RELEASE_DIR / "jupyter-hub", shared)
        subprocess.run(["chmod", "-R", "a+rX,a-w", str(shared)], check=True)
        yield base, names, student_python(base, names["victim"]), shared


def _ws_execute(port: int, token: str, kernel_id: str, code: str) -> str:
    """Run ``code`` in the kernel through the server's websocket, as JupyterLab does; its stdout."""
    import asyncio
    from tornado.websocket import websocket_connect

    async def run():
        session = uuid.uuid4().hex
        ws = await websocket_connect(f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels"
                                     f"?session_id={session}&token={token}")
        msg_id = uuid.uuid4().hex
        ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": "s", "session": session, "msg_type": "execute_request",
                       "version": "5.3"}, "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False}}))
        out, done, deadline = [], set(), time.monotonic() + 120
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(ws.read_message(), deadline - time.monotonic())
            assert raw is not None, "the kernel's websocket closed"
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            if msg["msg_type"] == "error":
                out.append("\n".join(msg["content"]["traceback"]))
            if msg["msg_type"] == "execute_reply" or msg["msg_type"] == "status" and \
                    msg["content"]["execution_state"] == "idle":
                done.add(msg["msg_type"])
            if len(done) == 2:  # the reply and IOPub's idle, after every output
                ws.close()
                return "".join(out)
        raise AssertionError("the kernel did not answer within 120 s")

    return asyncio.run(run())


@pytest.fixture(scope="module")
def victims_server(two_students):
    """The victim's Jupyter server with the students' settings; (port, token, kernel id, base, names, bin)."""
    base, names, bin_dir, shared = two_students
    victim, mate = names["victim"], names["classmate"]
    # the classmate makes the folder torch.compile would cache the victim's code in, open to all
    planted = Path(tempfile.gettempdir()) / f"torchinductor_{victim}"
    subprocess.run(["mkdir", "-m", "0777", str(planted)], check=True, user=mate)
    env = {**login_env(victim, bin_dir), "JUPYTER_CONFIG_PATH": str(shared),
           "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin"}
    home = Path(pwd.getpwnam(victim).pw_dir)
    sock = __import__("socket").socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    token = uuid.uuid4().hex
    log = open(base / "server.log", "w")
    proc = subprocess.Popen([str(bin_dir / "python"), "-m", "jupyter_server", "--no-browser", f"--port={port}",
                             "--ip=127.0.0.1", f"--IdentityProvider.token={token}"],
                            cwd=home, env=env, user=victim, group=victim, extra_groups=[],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        api = f"http://127.0.0.1:{port}/api"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{api}/status?token={token}", timeout=2).read()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, \
                    "the victim's Jupyter server did not start:\n" + (base / "server.log").read_text()[-3000:]
                time.sleep(0.5)
        req = urllib.request.Request(f"{api}/kernels?token={token}", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        kernel_id = json.loads(urllib.request.urlopen(req, timeout=60).read())["id"]
        assert _ws_execute(port, token, kernel_id, "print(1 + 1)").strip() == "2"
        yield port, token, kernel_id, base, names, bin_dir
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(planted, ignore_errors=True)


def test_a_classmate_cannot_read_the_cells_a_students_kernel_runs(victims_server):
    port, token, kernel_id, base, names, bin_dir = victims_server
    marker = f"ANSWER-{uuid.uuid4().hex}"
    spy = subprocess.Popen([str(bin_dir / "python"), "-c", LISTEN, str(pwd.getpwnam(names["victim"]).pw_uid),
                            marker, "8"], user=names["classmate"], group=names["classmate"], extra_groups=[],
                           cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = spy.stdout.readline()
        assert first.startswith("ready"), f"the classmate's listener did not start: {first}{spy.stdout.read()}"
        time.sleep(1.0)  # subscriptions reach the publisher
        assert _ws_execute(port, token, kernel_id, f"answer = {marker!r}\nprint(len(answer))").strip() == \
            str(len(marker))
        rest = spy.communicate(timeout=30)[0]
    finally:
        spy.kill()
    assert "SEEN" not in rest, (
        f"another account subscribed to the TCP ports of the victim's kernel (listening on {first.split(' ', 1)[1].strip()})"
        f" and read the code of the victim's cell, {marker!r}, from its IOPub channel: the students' Jupyter "
        f"settings must run kernels on sockets only their account can open")


def test_a_classmate_cannot_own_the_folder_torch_compile_caches_a_students_code_in(victims_server):
    port, token, kernel_id, base, names, bin_dir = victims_server
    where = _ws_execute(port, token, kernel_id, "from torch._inductor.runtime.cache_dir_utils import cache_dir\n"
                                                "print(cache_dir())").strip()
    assert where.startswith("/"), f"the victim's kernel did not report torch.compile's cache folder: {where}"
    probe = os.path.join(where, f"planted-{uuid.uuid4().hex}.py")
    r = subprocess.run(["sh", "-c", 'echo "import os" > "$1"', "sh", probe], user=names["classmate"],
                       capture_output=True, text=True)
    assert r.returncode != 0, (
        f"torch.compile in the victim's kernel caches generated code, which it imports later, in {where}, and "
        f"another account wrote {probe} there: the cache must be in a folder only the student can write")


def test_make_student_env_refuses_a_folder_another_account_made(two_students):
    """make student-env (as root) into a DEST a classmate made first, e.g. in /tmp: the classmate's
    bin/python must not run, as root or for anyone."""
    from course.authoring import student_env

    base, names, _, _ = two_students
    mate = names["classmate"]
    public = base / "public"  # as /tmp: every account may make a folder there
    public.mkdir(exist_ok=True)
    public.chmod(0o1777)
    dest = public / "tools"
    script = '#!/bin/sh\nid -u > "$(dirname "$0")/../ran"\n'
    subprocess.run(["sh", "-c", f'mkdir -p "$1/bin" && printf %s "$2" > "$1/bin/python" && chmod 755 "$1/bin/python"',
                    "sh", str(dest), script], check=True, user=mate)
    refused = None
    try:
        student_env.build(dest, cpu=True, python=None, pip_args=["--no-index"])
    except SystemExit as e:
        refused = str(e)
    finally:
        ran = (dest / "ran").read_text().strip() if (dest / "ran").exists() else None
        shutil.rmtree(dest, ignore_errors=True)
    assert ran is None, f"make student-env DEST={dest} ran {dest}/bin/python, which another account wrote, as uid {ran}"
    assert refused and "another account" in refused, f"student-env into {dest}, another account's folder, was not refused " \
                                                     f"for that: {refused}"


def test_make_student_env_leaves_nothing_writable_by_other_accounts(tmp_path):
    """Under umask 0 (some hubs) venv and pip leave files writable by all: the tools every student runs."""
    from course.authoring import student_env

    dest = tmp_path / "tools"
    (dest / "lib").mkdir(parents=True)
    (dest / "lib" / "torch.py").write_text("")
    for p, mode in ((dest, 0o777), (dest / "lib", 0o777), (dest / "lib" / "torch.py", 0o666)):
        p.chmod(mode)
    student_env.open_to_all(dest)
    open_ = [f"{p} {oct(p.stat().st_mode & 0o777)}" for p in (dest, dest / "lib", dest / "lib" / "torch.py")
             if p.stat().st_mode & 0o022]
    assert not open_, f"make student-env left these writable by other accounts: {open_}"


def test_a_classmate_holding_the_usual_ports_does_not_stop_a_students_jupyter(two_students):
    """jupyter lab tries 8888 and 50 ports near it; a classmate who holds all of them (8786-8990) must not
    stop a student's server from starting."""
    import socket

    base, names, bin_dir, shared = two_students
    victim, mate = names["victim"], names["classmate"]
    hold = ("import socket, sys, time\nheld = []\nfor p in range(8786, 8991):\n    s = socket.socket()\n"
            "    try:\n        s.bind(('127.0.0.1', p)); s.listen(); held.append(s)\n    except OSError:\n        pass\n"
            "print('ready', len(held), flush=True)\ntime.sleep(120)\n")
    holder = subprocess.Popen([str(bin_dir / "python"), "-c", hold], user=mate, group=mate, extra_groups=[],
                              cwd="/", stdout=subprocess.PIPE, text=True)
    env = {**login_env(victim, bin_dir), "JUPYTER_CONFIG_PATH": str(shared),
           "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin"}
    home = Path(pwd.getpwnam(victim).pw_dir)
    server = None
    try:
        assert holder.stdout.readline().startswith("ready")
        log = base / "server-ports.log"
        server = subprocess.Popen([str(bin_dir / "python"), "-m", "jupyter_server", "--no-browser"], cwd=home,
                                  env=env, user=victim, group=victim, extra_groups=[],
                                  stdout=open(log, "w"), stderr=subprocess.STDOUT)
        deadline, started = time.monotonic() + 120, None
        while started is None and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            found = [ln for ln in log.read_text().splitlines() if "http://127.0.0.1:" in ln]
            started = found[0] if found else None
        assert started, (f"a student's Jupyter server, started with the students' settings while another account "
                         f"held ports 8786-8990, did not start (exit {server.poll()}):\n{log.read_text()[-1500:]}")
        port = int(started.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    finally:
        for p in (server, holder):
            if p is not None:
                p.kill()
                p.wait()


def test_a_plain_python_of_the_tools_keeps_torch_compiles_cache_private(two_students, tmp_path):
    """A terminal's python of make student-env's tools (no lab, no validate) with a classmate's folder
    planted at torch's default /tmp/torchinductor_<student>."""
    from course.authoring import student_env

    base, names, bin_dir, _ = two_students
    victim, mate = names["victim"], names["classmate"]
    venv = base / "plain-tools"  # a copy of the students' venv, so the other tests keep theirs
    subprocess.run([str(bin_dir / "python"), "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    old = subprocess.run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    packages, kit = (Path(old) / "course-student.pth").read_text().split()
    (Path(purelib) / "course-student.pth").write_text(packages + "\n")
    shutil.copytree(Path(kit) / "course", Path(purelib) / "course")  # where pip puts the course's helpers
    student_env.private_caches_pth(purelib)
    student_env.open_to_all(venv)
    planted = Path(tempfile.gettempdir()) / f"torchinductor_{victim}"
    subprocess.run(["mkdir", "-p", "-m", "0777", str(planted)], check=True, user=mate)
    try:
        r = subprocess.run([str(venv / "bin" / "python"), "-c", "from torch._inductor.runtime.cache_dir_utils "
                            "import cache_dir; print(cache_dir())"], user=victim, group=victim, extra_groups=[],
                           env=login_env(victim, bin_dir), cwd="/", capture_output=True, text=True, timeout=300)
    finally:
        shutil.rmtree(planted, ignore_errors=True)
    where = r.stdout.strip()
    assert "Error processing" not in r.stderr, f"the tools' .pth failed at start-up:\n{r.stderr[-1500:]}"
    assert r.returncode == 0 and where.startswith(pwd.getpwnam(victim).pw_dir + "/"), (
        f"a plain python of the students' tools, run by the student, put torch.compile's cache in {where or r.stderr[-500:]}, "
        f"not in the student's home, while another account owned {planted}")
