"""A property check draws the same inputs under the same seed whatever else the course holds (course/judge/
pytest_plugin.py). Hypothesis mixes literals of loaded local modules into its draws; the judge's profile empties that
pool, so an edit of the course (a module with new constants) cannot change a check's inputs (it once turned a
15-10 example that only a draw caught into full marks)."""
import subprocess
import sys

from course import REPO_ROOT

DRAWS = r'''
import sys, types
from hypothesis import given, strategies as st
from course.judge.pytest_plugin import _hypothesis_profile
_hypothesis_profile(20261203)
if sys.argv[1] == "extra":  # a local module full of constants, as a new course module would be
    path = sys.argv[2]
    with open(path, "w") as fh:
        fh.write("A = [" + ", ".join(str(1000003 * i + 7) for i in range(200)) + ", 0.123456, 98765.4321]\n")
    sys.path.insert(0, path.rsplit("/", 1)[0])
    __import__(path.rsplit("/", 1)[1][:-3])
seen = []
@given(st.integers(0, 2**40), st.floats(0.05, 1e6))
def draw(i, f):
    seen.append((i, f))
draw()
print(seen)
'''


def _draws(tmp_path, mode):
    r = subprocess.run([sys.executable, "-c", DRAWS, mode, str(tmp_path / "extra_constants_mod.py")],
                       capture_output=True, text=True, timeout=120, cwd=str(REPO_ROOT))
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def test_a_new_local_module_does_not_change_the_draws(tmp_path):
    plain, extra = _draws(tmp_path, "plain"), _draws(tmp_path, "extra")
    assert plain == extra
