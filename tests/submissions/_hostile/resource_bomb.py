"""Fills every place it can write (work folder, /tmp, /dev/shm) past its caps, holds memory in
tmpfs, starts 1,500 threads and 300 processes, and floods many cells with output."""
EXPECT_TOTAL = 0
BASE = "release"
FILL = r'''
import os, threading, time
_held = 0
for _d in (".", "/tmp", "/dev/shm"):
    for _i in range(20):
        try:
            with open(os.path.join(_d, f"fill-{_i}"), "wb") as _fh:
                for _ in range(64):
                    _fh.write(b"1" * 2**20)
            _held += 64
        except OSError:
            break
print("held MB in files:", _held)
_threads = 0
try:
    for _ in range(1500):
        threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
        _threads += 1
except Exception as _e:
    print("threads stopped at", _threads, type(_e).__name__)
_kids = 0
for _ in range(300):
    try:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        _kids += 1
    except OSError:
        break
print("threads", _threads, "processes", _kids)
'''
FLOOD = "print('x' * 1_900_000)"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(FILL))
    for _ in range(12):
        nb.cells.append(nbformat.v4.new_code_cell(FLOOD))
