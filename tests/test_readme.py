"""The README's promises, checked: short enough to read in ten minutes, every command, setting, link
and path it names exists, its CPU-only score table is what the suites and notebooks give, and each
behaviour it promises maps to a test that exists (docs/readme-promises.md)."""
import os
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from course import REPO_ROOT, SOURCE_DIR, TESTS_DIR, assignments, settings
from course import notebook as nbtools

README = REPO_ROOT / "README.md"
PROMISES = REPO_ROOT / "docs" / "readme-promises.md"
MAX_LINES = 250
TABLE_HEAD = "| id | topic | points | `ex-complete` | `ex-blank` |"


def text() -> str:
    return README.read_text()


def sections(md: str) -> dict[str, str]:
    """'## ' heading -> its text, up to the next '## ' heading."""
    parts = re.split(r"^## (.+)$", md, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_short_enough_to_read_in_ten_minutes():
    n = len(text().splitlines())
    assert n <= MAX_LINES, f"README.md has {n} lines, more than {MAX_LINES}: move detail to a docs/ file"


def test_every_make_target_it_names_exists():
    targets = set(re.findall(r"^([A-Za-z][\w-]*):", (REPO_ROOT / "Makefile").read_text(), flags=re.M))
    named = set(re.findall(r"(?:`|^)make ([a-z][\w-]*)", text(), flags=re.M))
    assert named, "the README names no make target"
    assert named <= targets, f"README names make targets the Makefile lacks: {sorted(named - targets)}"


def test_every_setting_it_names_exists():
    known = {settings.env_name(f.name) for f in fields(settings.Settings)}
    named = set(re.findall(r"\bCOURSE_[A-Z0-9_]+", text()))
    assert named <= known, f"README names variables course/settings.py does not have: {sorted(named - known)}"


@pytest.mark.parametrize("doc", ["README.md"] + sorted(str(p.relative_to(REPO_ROOT))
                                                       for p in (REPO_ROOT / "docs").glob("*.md")))
def test_every_link_resolves(doc):
    path = REPO_ROOT / doc
    broken = []
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", path.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        dest = (path.parent / target).resolve() if target else path
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and anchor not in {slug(h) for h in re.findall(r"^#+ (.+)$", dest.read_text(), flags=re.M)}:
            broken.append(f"{target}#{anchor} (no such heading)")
    assert not broken, f"{doc} links to what is not there: {broken}"


def test_every_docs_file_is_linked_from_the_readme():
    linked = {Path(t).name for t in re.findall(r"\]\(docs/([^)#\s]+)", text())}
    unlinked = sorted(p.name for p in (REPO_ROOT / "docs").glob("*.md") if p.name not in linked)
    assert not unlinked, f"docs/ files the README does not link to: {unlinked}"


def test_every_path_in_its_layout_exists():
    layout = sections(text()).get("Layout", "")
    paths = [p for row in re.findall(r"^\| ([^|]+) \|", layout, flags=re.M) for p in re.findall(r"`([^`]+)`", row)]
    assert paths, "the README's Layout section has no table of paths"
    missing = [p for p in paths if not list(REPO_ROOT.glob(re.sub(r"<[^>]+>", "*", p).rstrip("/")))]
    assert not missing, f"the README's Layout names paths that do not exist: {missing}"


def test_every_promise_names_tests_that_exist():
    rows = [r for r in re.findall(r"^\|(.+)\|$", PROMISES.read_text(), flags=re.M)
            if not set(r) <= set("-| ") and not r.strip().startswith("README section")]
    assert rows, "docs/readme-promises.md has no table"
    missing, covered = [], set()
    for row in rows:
        section, _, tests = [c.strip() for c in row.split("|")]
        named = re.findall(r"`(tests/[\w/.-]+\.py)::(\w+)`", tests)
        if not named:
            missing.append(f"{section}: no test named")
        for file, name in named:
            src = REPO_ROOT / file
            if not src.exists() or not re.search(rf"^(async )?def {name}\(", src.read_text(), flags=re.M):
                missing.append(f"{file}::{name}")
        covered.add(section)
    assert not missing, f"docs/readme-promises.md names tests that do not exist: {missing}"
    uncovered = sorted(set(sections(text())) - covered)
    assert not uncovered, f"README sections with no row in docs/readme-promises.md: {uncovered}"


# ------------------------------------------------------------------ the CPU-only score table
class Checks:
    """A pytest plugin that keeps [topic, task, weight, needs a GPU] of every collected check."""

    def __init__(self):
        self.found = []

    def pytest_collection_modifyitems(self, items):
        for it in items:
            t = it.get_closest_marker("task")
            if it.get_closest_marker("penalty"):  # passed by the reference: not part of its score
                continue
            self.found.append((it.path.parent.name, t.args[0] if t else None,
                               float(t.kwargs.get("weight", 1.0)) if t else 1.0, bool(it.get_closest_marker("gpu"))))


def gpu_topics() -> list[str]:
    """Topics whose suite holds a GPU check (the others lose nothing without a GPU)."""
    return [a for a in assignments()
            if any("mark.gpu" in p.read_text() for p in (TESTS_DIR / a).glob("*.py"))]


def collected_checks(topics: list[str]) -> dict[str, list]:
    """topic -> [(task, weight, needs a GPU)] of every check, as a grading run collects them (in this
    process: this session has torch and the judge's plugin loaded already)."""
    if not topics:
        return {}
    plugin = Checks()
    rc = pytest.main([*(str(TESTS_DIR / a) for a in topics), "--collect-only", "-q", "-p", "no:randomly",
                      "--rootdir", str(REPO_ROOT), "-c", str(REPO_ROOT / "pytest.ini")], plugins=[plugin])
    assert rc == 0, f"collecting the suites of {topics} failed (exit {rc}); run pytest --collect-only on them"
    out = {a: [] for a in topics}
    for topic, task, weight, gpu in plugin.found:
        out[topic].append((task, weight, gpu))
    return out


def cpu_only_score(assignment: str, checks: list | None) -> tuple[float, float]:
    """(points, the reference's score without a GPU): each test cell earns its points times the share of
    its tasks' check weight that needs no GPU (course/grading/autograde/preprocessors/hidden_checks.py: failed
    checks count, skipped ones do not; under grading without a GPU the GPU checks fail). ``checks``
    None: a topic without GPU checks."""
    nb = nbtools.read(next((SOURCE_DIR / assignment).glob("*.ipynb")))
    total = score = 0.0
    for cell in nb.cells:
        meta = nbtools.nbgrader_meta(cell)
        if not meta.get("grade"):
            continue
        points = float(meta.get("points", 0))
        tasks = [m[1] for m in re.findall(r"run_hidden\(\s*['\"][^'\"]+['\"]\s*,\s*(['\"])(.+?)\1", cell.source)]
        weights = [(w, gpu) for task, w, gpu in checks if task in tasks] if checks is not None else [(1.0, False)]
        all_w = sum(w for w, _ in weights)
        total += points
        score += round(points * sum(w for w, gpu in weights if not gpu) / all_w, 4) if all_w else 0.0
    return total, score


def test_cpu_only_score_table():
    rows = {}
    body = text().split(TABLE_HEAD, 1)
    assert len(body) == 2, f"the README has no CPU-only score table headed {TABLE_HEAD}"
    for line in body[1].splitlines()[2:]:  # after the header's end and its |---| row
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = (cells[2], cells[3], cells[4])
    gpu = set(gpu_topics())
    checks = collected_checks(sorted(gpu))
    expected = {}
    for a in assignments():
        points, ref = cpu_only_score(a, checks.get(a))
        expected[a] = (f"{points:g}", f"{ref:.2f}", "0.00")
    wrong = {a: (rows.get(a), e) for a, e in expected.items() if rows.get(a) != e}
    assert not wrong and set(rows) == set(expected), (
        "the README's CPU-only score table is out of date; (README row, expected points/ex-complete/ex-blank): "
        f"{wrong}; rows for topics that do not exist: {sorted(set(rows) - set(expected))}")
    graded = re.search(r"^autograde: (\d+) graded", text(), flags=re.M)
    assert graded and int(graded.group(1)) == 3 * len(expected), \
        f"the README's make grade output says {graded and graded.group(1)} graded; 3 examples x {len(expected)} topics"


# ------------------------------------------------------------------ behaviour the README promises
GPU_TESTS = """
import pytest

@pytest.mark.gpu
@pytest.mark.parametrize("run", ["grading", "grading_allowed", "outside_grading"])
def test_needs_cuda(run):
    pass
"""


class RunAs:
    """Before the judge's plugin decides, set the environment of the run each check stands for, and
    keep each check's outcome."""

    def __init__(self):
        self.outcomes = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        run = item.callspec.params["run"]
        os.environ.pop("COURSE_JUDGE", None)
        os.environ.pop("NBGRADER_EXECUTION", None)
        os.environ.pop("COURSE_ALLOW_CPU_GRADING", None)
        if run.startswith("grading"):
            os.environ["COURSE_JUDGE"] = "1"
        if run == "grading_allowed":
            os.environ["COURSE_ALLOW_CPU_GRADING"] = "1"

    def pytest_runtest_logreport(self, report):
        if report.when == "setup" and not report.passed or report.when == "call":
            self.outcomes[report.nodeid.rsplit("[", 1)[1].rstrip("]")] = (report.outcome, str(report.longrepr))


def test_gpu_checks_fail_when_grading_without_a_gpu(tmp_path, monkeypatch):
    """A GPU check on a machine without CUDA: failed under grading ("grade on a GPU node"), skipped
    with COURSE_ALLOW_CPU_GRADING=1, skipped outside grading; never passed."""
    import torch
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    (tmp_path / "test_readme_gpu_probe.py").write_text(GPU_TESTS)
    saved, plugin = dict(os.environ), RunAs()
    try:
        pytest.main([str(tmp_path), "-q", "-p", "course.judge.pytest_plugin", "-p", "no:randomly", "-p",
                     "no:cacheprovider", "--import-mode=importlib", "--rootdir", str(tmp_path)], plugins=[plugin])
    finally:
        os.environ.clear()
        os.environ.update(saved)
    got = plugin.outcomes
    assert set(got) == {"grading", "grading_allowed", "outside_grading"}, got
    assert got["grading"][0] == "failed" and "grade on a GPU node" in got["grading"][1], got["grading"]
    for run in ("grading_allowed", "outside_grading"):
        assert got[run][0] == "skipped", f"{run}: {got[run]}"


def test_grading_refuses_without_bubblewrap(tmp_path):
    """No bwrap on PATH: make grade's pipeline stops with one line before it touches the course."""
    root = tmp_path / "course"
    root.mkdir()
    env = {"HOME": str(tmp_path), "PATH": str(tmp_path / "no-bwrap-here"), "COURSE_SANDBOX": "on", "LANG": "C.UTF-8"}
    r = subprocess.run([sys.executable, "-m", "course.grading.pipeline", "--root", str(root)], cwd=REPO_ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    out = (r.stdout + r.stderr).strip()
    assert r.returncode != 0 and out.startswith("REFUSING TO GRADE:") and "bubblewrap" in out, out[-2000:]
    assert len(out.splitlines()) == 1, f"more than one line:\n{out[-2000:]}"
    assert not any(root.iterdir()), f"it wrote into the course root: {list(root.iterdir())}"


def test_score_table_fits_an_80_column_terminal(tmp_path, monkeypatch):
    """make grade's score table (every topic x the three examples) in blocks that fit 80 columns, each
    student's every score in it; --wide: one line per student."""
    from nbgrader.api import Gradebook
    from course.grading.class_run.pipeline import score_table
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    ids = assignments()
    students = ["ex-blank", "ex-complete", "ex-partly-wrong"]
    (tmp_path / "gradebook").mkdir()
    db = f"sqlite:///{tmp_path / 'gradebook' / 'gradebook.db'}"
    with Gradebook(db) as gb:
        for a in ids:
            gb.add_assignment(a)
            gb.add_notebook("nb", a)
            gb.add_grade_cell("c", "nb", a, max_score=26, cell_type="code")
        for s in students:
            gb.add_student(s)
            for a in ids:
                gb.add_submission(a, s).notebooks[0].grades[0].auto_score = 26 if s == "ex-complete" else 0
        gb.db.commit()
    narrow = score_table(tmp_path, ids, db).splitlines()
    assert max(len(line) for line in narrow) <= 80, "\n".join(narrow)
    for s in students:
        assert sum(line.count("/26") for line in narrow if line.startswith(s)) == len(ids), "\n".join(narrow)
    wide = score_table(tmp_path, ids, db, width=None).splitlines()
    assert len(wide) == 2 + len(students) and all(a in wide[0] for a in ids), "\n".join(wide)
