"""Grading untrusted code, end to end through nbgrader: every hostile submission in
tests/submissions/_hostile scores 0 on every cell, the batch completes, the honest submissions
graded after them (tests/submissions/_honest, and the reference) keep full marks, and crashes
leave a line in the grading log.

The corpus is graded in two batches (PARTS), each one pipeline run in a course of its own, an xdist group
of its own and a limit of its own, so that one slow or stuck part fails only its own tests: "limits"
(crashes, floods and bombs: what waits on or fills a limit) and "access" (everything else: files, secrets,
active content; a new spec joins it), each ending with honest submissions.

The kernel-side defences (sandboxed kernel, cell repair, crash and time limits) do not depend on
the assignment, so the whole corpus runs end to end on one assignment (15-01). The defences that
do depend on each assignment's checks (reading solutions, patching comparisons, forged replies) are judged
by tests/test_submissions.py::test_example_submission_verdicts on the topics whose suites between them use
every part of the judge (generic_topics there; on every topic under make test-suites). The forged replies
(specs with JUDGE_ALL) attack only the judge's worker, which the pipeline runs as the verdicts do: they are
judged there alone, on 15-01 too, not graded here again with a kernel each (about 15 s of CPU a notebook).
"""
import compileall
import hashlib
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook, MissingEntry

import os as _os

import torch as _torch

if not _torch.cuda.is_available():
    # Instructor CI on a CPU machine: GPU-marked checks are graded as skipped (and say so).
    _os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course import REPO_ROOT, tool_env
from course import assignments
from course.grading.class_run import submissions
from tests.pipeline_run import hostile_topic, start_pipeline, wait_run

ASSIGNMENTS = assignments()
FIRST = hostile_topic()
CRASHES = {"kill_kernel", "segfault", "endless_loop", "print_flood", "memory_bomb", "truncated", "not_json"}
SALT = str(secrets.randbelow(10**12) + 10**11)  # a fresh secret per run: it must reach no student
# Tight limits: an endless loop burns CPU until one ends it (in its kernel's cell, then in the judge's load), so
# each second here is a second of the suite's CPU; 15-01's honest notebooks need well under a tenth of them,
# and a time-out while the machine is busy is graded again alone (a starved submission keeps its marks).
LIMITS = {"COURSE_CELL_TIMEOUT": "8", "COURSE_LOAD_TIMEOUT": "12", "COURSE_CALL_TIMEOUT": "15",
          "COURSE_MEMORY_LIMIT_MB": "2048", "COURSE_SEED_SALT": SALT}
BATCH_TIMEOUT = float(os.environ.get("COURSE_HOSTILE_TIMEOUT", "2100"))  # a part's; below pytest-timeout's 2400 s
MARKER = Path("/tmp/COURSE_HOSTILE_PWNED")  # what link_swap's payload would write if it ever ran on the host
TRUSTED = ("course", "tests", "source", "release", "nbgrader_config.py", "Makefile", "requirements.txt", "pyproject.toml")


def tree_hashes(*roots: Path) -> dict[str, str]:
    """sha256 of every file under the trusted parts of the course (caches excluded)."""
    out = {}
    for root in roots:
        for top in TRUSTED:
            base = root / top
            paths = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
            for p in paths:
                if p.is_symlink() or "__pycache__" in p.parts or ".hypothesis" in p.parts:
                    out[str(p)] = "symlink" if p.is_symlink() else out.get(str(p), "")
                    continue
                if p.is_file():
                    out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


# The part of each hostile spec ("access" unless named here) and the honest ones graded after each part's.
LIMITS_PART = {"kill_kernel", "segfault", "endless_loop", "print_flood", "memory_bomb", "resource_bomb",
               "display_bomb", "widget_state", "forged_verdict", "forge_bomb", "ipc_deep_tree", "ipc_tamper"}
HONEST_IN = {"limits": {"noisy_reference"}}  # a part not named: every honest spec
PARTS = ("limits", "access")


def part_of(stem: str) -> str:
    return "limits" if stem in LIMITS_PART else "access"


def judge_only(spec: Path) -> bool:
    """A spec that attacks the judge's worker alone (JUDGE_ALL: the forged replies), judged by the verdicts."""
    return bool(submissions.load_spec(spec).get("JUDGE_ALL"))


def plan():
    out = []  # (part, student, assignment, spec path, kind)
    for p in submissions.generic_specs("hostile"):
        if not judge_only(p):
            out.append((part_of(p.stem), f"hostile-{p.stem}", FIRST, p, "hostile"))
    for part in PARTS:
        for p in submissions.generic_specs("honest"):
            if p.stem in HONEST_IN.get(part, {p.stem}):
                out.append((part, f"zz-honest-{p.stem}", FIRST, p, "honest"))
    return out


PLAN = plan()
_RUNS: dict[str, tuple] = {}  # one pipeline run per part serves all of the part's tests


def grade_part(root: Path, part: str):
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source", root / "source", ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    for p, student, a, spec, _ in PLAN:
        if p != part:
            continue
        dest = root / "gradebook" / "submitted" / student / a / submissions.release_notebook(a).name
        loaded = submissions.write(spec, dest, assignment=a)
        if "PLACE" in loaded:  # file-level attacks on the submitted folder
            loaded["PLACE"](dest.parent, {"root": root, "repo": REPO_ROOT, "assignment": a, "student": student})
    MARKER.unlink(missing_ok=True)
    # the grader's own imports would write byte code for modules nothing in this process has imported yet
    # (the pipeline runs in a process of its own): compile them first, so that any file that appears is news
    for top in ("course", "tests"):
        compileall.compile_dir(str(REPO_ROOT / top), quiet=1)
    before = tree_hashes(REPO_ROOT, root)
    started = time.time()
    # in a process of its own that ends with this fixture (tests/pipeline_run.py); one grading worker: the
    # other xdist worker keeps the second core busy, and a second one would pay its own runner and judge
    run = wait_run(start_pipeline(root, FIRST, {**tool_env(), **LIMITS}, workers=1), root, f"{FIRST} ({part})",
                   BATCH_TIMEOUT)
    return root, run, before, started


@pytest.fixture(scope="module")
def graded(tmp_path_factory, part):
    if part not in _RUNS:
        _RUNS[part] = grade_part(tmp_path_factory.mktemp(f"hostile-{part}"), part)
    root, run, before, started = _RUNS[part]
    if run.error:
        pytest.fail(run.error + "\n" + run.out[-3000:])
    return root, run.rc, run.out, before, started


# module scope: a part's tests run together on its one run; tests/conftest.py makes each part an xdist group
per_part = pytest.mark.parametrize("part", PARTS, scope="module")


def holding(*stems: str):
    """The parametrisation on the part that grades these hostile specs."""
    (part,) = {part_of(s) for s in stems}
    return pytest.mark.parametrize("part", [part], scope="module")


def score(root, a, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        try:
            sub = gb.find_submission_notebook(submissions.release_notebook(a).stem, a, student)
        except MissingEntry:
            return None
        return {g.name: (g.score, g.max_score) for g in sub.grades if g.max_score > 0}


@per_part
def test_batch_completes(graded):
    root, rc, out, _, _ = graded
    assert rc == 0, f"some submissions were not graded:\n{out}"


@pytest.mark.parametrize("part,student,assignment,spec,kind", PLAN, scope="module",
                         ids=[f"{p}-{s}" for p, s, _, _, _ in PLAN])
def test_verdict(graded, student, assignment, spec, kind):
    root, _, out, _, _ = graded
    cells = score(root, assignment, student)
    assert cells is not None, f"{student} was not graded for {assignment}:\n{out}"
    if kind == "hostile":
        earned = {k: v for k, v in cells.items() if v[0]}
        assert not earned, f"{student} earned points in {assignment}: {earned}"
    else:
        short = {k: v for k, v in cells.items() if v[0] != v[1]}
        assert not short, f"{student} lost points in {assignment}: {short}"


@pytest.mark.parametrize("part,name", [(part_of(n), n) for n in sorted(CRASHES | {"restructure", "flag_flip"})],
                         scope="module", ids=[f"{part_of(n)}-{n}" for n in sorted(CRASHES | {"restructure", "flag_flip"})])
def test_incident_is_logged(graded, name):
    root, _, out, _, _ = graded
    log = (root / "gradebook" / "logs" / f"{FIRST}.log").read_text() + out
    student = f"hostile-{name}"
    lines = [ln for ln in log.splitlines() if student in ln and ("WARNING" in ln or "graded as a blank" in ln
                                                                 or ln.strip().startswith(FIRST))]
    assert lines, f"no line about {student} in the grading log"
    from course.grading.records import judge_records
    found = [i for i in judge_records.read_incidents(judge_records.records_dir(root)) if i["student"] == student]
    assert found, f"no incident of {student} in gradebook/records/incidents.jsonl"


@per_part
def test_no_score_above_its_maximum(graded):
    root, _, _, _, _ = graded
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        for a in {FIRST}:
            for s in gb.assignment_submissions(a):
                assert s.score <= s.max_score, f"{s.student.id} has {s.score} of {s.max_score} in {a}"


@holding("read_solutions")
def test_gradebook_and_solutions_out_of_reach(graded):
    root, _, _, _, _ = graded
    nb = nbformat.read(next((root / "autograded" / f"hostile-read_solutions" / FIRST).glob("*.ipynb")), 4)
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "NETWORK REACHABLE" not in text
    assert "def test_" not in text and "student.call" not in text, "the submission could read the hidden tests"


# ---------------------------------------------------------------- after the batch: nothing leaked

def student_files(root: Path, prefix: str = ""):
    """Every entry of autograded/ and feedback/ (of the students whose id starts with ``prefix``)."""
    for top in (root / "autograded", root / "gradebook" / "feedback"):
        for dirpath, dirnames, filenames in os.walk(top):
            for name in dirnames + filenames:
                p = Path(dirpath) / name
                if p.relative_to(top).parts[0].startswith(prefix):
                    yield p


@per_part
def test_no_file_outside_the_students_scratch_changed(graded):
    root, _, _, before, _ = graded
    assert not MARKER.exists(), "a submission ran a command on the grading host"
    after = tree_hashes(REPO_ROOT, root)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p)
                     and not p.startswith(str(root / "release")))  # release/ is generated by the run
    assert not changed, f"files changed by grading: {changed[:10]}"


@per_part
def test_no_symlink_in_student_folders(graded):
    root, _, _, _, _ = graded
    links = [str(p) for p in student_files(root) if p.is_symlink()]
    assert not links, f"symbolic links in autograded/ or feedback/: {links}"


@per_part
def test_feedback_holds_only_the_feedback(graded):
    root, _, _, _, _ = graded
    allowed = {"timestamp.txt", "submission_secret.txt"}
    extra = [str(p) for p in (root / "gradebook" / "feedback").rglob("*")
             if p.is_file() and p.suffix != ".html" and p.name not in allowed]
    assert not extra, f"feedback folders hold files from the submission's folder: {extra}"
    big = [(str(p), p.stat().st_size) for p in student_files(root) if p.is_file() and p.stat().st_size > 16 * 2**20]
    assert not big, f"graded notebook or feedback over 16 MB: {big}"


@per_part
def test_nothing_secret_in_hostile_students_folders(graded):
    root, _, _, _, _ = graded
    src = nbtools_read(sorted((root / "source" / FIRST).glob("*.ipynb"))[0])
    released = {ln.strip() for c in nbtools_read(submissions.release_notebook(FIRST)).cells
                for ln in c.source.splitlines()}
    solution_lines = {ln.strip() for c in src.cells if c.get("metadata", {}).get("nbgrader", {}).get("solution")
                      for ln in c.source.splitlines() if len(ln.strip()) > 25} - released
    secrets_ = {"gradebook bytes": b"SQLite format 3", "the seed salt": SALT.encode(),
                "hidden test code": b"student.call(", "a host file": b"root:x:0:0", **root_only_lines()}
    found = []
    for p in student_files(root, prefix="hostile-"):
        if not p.is_file():
            continue
        data = p.read_bytes()
        found += [f"{p}: {what}" for what, needle in secrets_.items() if needle in data]
        text = data.decode("utf-8", "replace")
        found += [f"{p}: solution line {ln[:40]!r}" for ln in solution_lines if ln in text][:3]
    assert not found, "\n".join(found[:20])


@holding("submitted_links")
def test_log_lines_cannot_be_forged(graded):
    root, _, out, _, _ = graded
    log = (root / "gradebook" / "logs" / f"{FIRST}.log").read_text() + out
    forged = [ln for ln in log.splitlines() if ln.startswith("[AutogradeApp | WARNING | 00:00:00]")]
    assert not forged, f"a file name forged a log line: {forged}"
    assert (root / "gradebook" / "rejected" / "hostile-submitted_links" / FIRST).is_dir()


@holding("probe_leak")
def test_probe_file_not_in_the_leakers_feedback(graded):
    """probe_leak wraps the worker's probe loading, searches its memory and answers every check with
    the next 1,800 characters of what it found: the worker never holds the probes' source, and what it
    does send is quoted within the feedback's budget (course/judge/worker_text.py)."""
    import html

    root = graded[0]
    probes = (REPO_ROOT / "tests" / FIRST / "probes.py").read_text()
    released = {ln.strip() for c in nbtools_read(submissions.release_notebook(FIRST)).cells for ln in c.source.splitlines()}
    distinctive = {ln.strip() for ln in probes.splitlines() if len(ln.strip()) > 25} - released
    student = "hostile-probe_leak"
    nb = nbformat.read(next((root / "autograded" / student / FIRST).glob("*.ipynb")), 4)
    outputs = "\n".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", ""))
                        for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    page = html.unescape(next((root / "gradebook" / "feedback" / student / FIRST).glob("*.html")).read_text())
    assert "LEAK" in outputs, "the attack never answered a check, so this proves nothing"
    assert "characters of text from your code" in outputs, "the feedback budget was never reached"
    for where, text in (("autograded notebook", outputs), ("feedback", page)):
        leaked = sorted(ln for ln in distinctive if ln in text)
        assert len(leaked) <= 3, f"{len(leaked)} lines of the probe file in the {where}: {leaked[:5]}"


def root_only_lines() -> dict[str, bytes]:
    """The first line of each root-only host file this test can read (it runs as the grader)."""
    out = {}
    for p in ["/etc/shadow", "/etc/gshadow", *sorted(Path("/etc/ssh").glob("*_key"))]:
        try:
            line = Path(p).read_bytes().splitlines()[0]
        except (OSError, IndexError):
            continue
        if len(line) >= 8 and os.stat(p).st_mode & 0o004 == 0:
            out[f"root-only {p}"] = line
    return out


def nbtools_read(path):
    from course import notebook as nbtools
    return nbtools.read(path)


@per_part
def test_no_sandbox_bytes_left_on_the_host(graded):
    """Every folder the batch's sandboxes could write (kernel IPC folders, worker scratch) is gone,
    however deep a submission nested it (ipc_deep_tree)."""
    from course import fstree
    from course.sandbox import tempdirs
    _, _, _, _, started = graded
    tmp = Path(tempdirs.private_root())
    left = []
    for p in tmp.glob("course-*-*-*"):
        m = tempdirs._NAME.match(p.name)
        if m and p.stat().st_mtime >= started - 1 and not tempdirs.pid_alive(int(m.group(2))):
            used = fstree.usage(str(p))
            left.append(f"{p.name}: {used.entries} entries, {used.bytes} bytes")
    assert not left, f"folders of finished grading processes left on the host: {left}"


@holding("ipc_deep_tree")
def test_next_run_loads_the_course_configuration(graded):
    """After the hostile batch, a new nbgrader process loads this course's settings (no refusal, no
    fallback to nbgrader's defaults) and reads the gradebook the batch wrote."""
    root, _, _, _, _ = graded
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    r = subprocess.run([sys.executable, "-m", "nbgrader", "db", "student", "list"], cwd=root, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Exception while loading config file" not in r.stderr and "refusing" not in r.stderr, r.stderr[-2000:]
    assert "hostile-ipc_deep_tree" in r.stdout + r.stderr


# ---------------------------------------------------------------- after the batch: nothing active, nothing oversized

INERT_MIMES = {"text/plain", "image/png", "image/jpeg"}
OUTPUT_CAP = 8_000_000  # per notebook (course/grading/config.py)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def graded_files(root: Path, prefix: str):
    """(student, autograded notebook, feedback page) of every student whose id starts with ``prefix``."""
    for nb in sorted((root / "autograded").glob(f"{prefix}*/{FIRST}/*.ipynb")):
        student = nb.parent.parent.name
        yield student, nb, root / "gradebook" / "feedback" / student / FIRST / nb.with_suffix(".html").name


@per_part
def test_no_active_content_in_graded_notebooks_or_feedback(graded):
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    from tests.html_scan import active, page_scripts

    root = graded[0]
    honest = [page for _, _, page in graded_files(root, "zz-honest-")]
    template_scripts = page_scripts(honest[0].read_text())  # the feedback template's own (MathJax)
    found = []
    for student, path, page in graded_files(root, "hostile-"):
        nb = nbformat.read(path, 4)
        found += [f"{student}: widget state"] if "widgets" in nb.metadata else []
        for i, cell in enumerate(nb.cells):
            where = f"{student} cell {i}"
            if "attachments" in cell:
                found.append(f"{where}: attachments")
            if cell.cell_type == "markdown":  # as nbgrader's formgrader renders it
                found += [f"{where}: {a}" for a in active(markdown2html_mistune(cell.source))]
            if cell.cell_type == "raw":
                found += [f"{where}: {a}" for a in active(cell.source)]
            if cell.cell_type == "code" and not (cell.execution_count is None or type(cell.execution_count) is int):
                found.append(f"{where}: prompt number {cell.execution_count!r}")
            for o in cell.get("outputs", []):
                extra = set(o.get("data", {})) - INERT_MIMES
                found += [f"{where}: {sorted(extra)} output"] if extra else []
        assert page.is_file(), f"no feedback for {student}"
        found += [f"{student} feedback: {a}" for a in active(page.read_text(), template_scripts)]
    assert not found, "\n".join(found[:30])


@per_part
def test_graded_notebooks_and_feedback_stay_under_the_output_cap(graded):
    root = graded[0]
    release = submissions.release_notebook(FIRST).stat().st_size
    honest = max(page.stat().st_size for _, _, page in graded_files(root, "zz-honest-"))
    over = []
    for student, path, page in graded_files(root, "hostile-"):
        if path.stat().st_size > OUTPUT_CAP + release + 500_000:
            over.append(f"{path}: {path.stat().st_size} bytes")
        if page.is_file() and page.stat().st_size > OUTPUT_CAP + honest + 500_000:
            over.append(f"{page}: {page.stat().st_size} bytes")
    assert not over, over


@holding("display_bomb", "widget_state")
def test_the_bombs_are_cut_at_the_first_cells_limit(graded):
    root = graded[0]
    release = submissions.release_notebook(FIRST).stat().st_size
    for name in ("display_bomb", "widget_state"):
        path = next(p for s, p, _ in graded_files(root, f"hostile-{name}"))
        assert path.stat().st_size < release + 2_500_000, (name, path.stat().st_size)


@per_part
def test_the_verdict_is_whole_and_last_in_every_test_cell(graded):
    from course import notebook as nbtools
    from course.grading.autograde.preprocessors.forged_verdicts import MARK, looks_like_verdict

    root = graded[0]
    bad = []
    for student, path, _ in graded_files(root, ""):
        for cell in nbformat.read(path, 4).cells:
            if not (nbtools.is_test_cell(cell) and nbtools.hidden_calls(cell.source)):
                continue
            outs = cell.outputs
            if outs and outs[-1].get("ename") == "GradingError":
                continue
            at = len(outs) - (2 if outs and outs[-1]["output_type"] == "execute_result" else 1)
            text = outs[at].get("text", "") if at >= 0 else ""
            if not (text.startswith("Hidden checks for ") and text.splitlines()[-1].startswith("Score for this cell: ")):
                bad.append(f"{student}: the verdict is not last: {[o['output_type'] for o in outs]}")
            own = [ln for o in outs[:max(at, 0)] for ln in o.get("text", "").splitlines()]
            bad += [f"{student}: unmarked {ln[:60]!r}" for ln in own if looks_like_verdict(ln) and not ln.startswith(MARK)]
            if student == "hostile-forged_verdict" and not any(ln.startswith(MARK) for ln in own):
                bad.append(f"{student}: the forged lines are not marked")
    assert not bad, "\n".join(bad[:20])


MARKS = """() => ({pwned: window.__pwned || null, title: document.title,
                  stored: (() => { try { return localStorage.getItem('pwned') } catch (e) { return 'unreadable' } })(),
                  links: Array.from(document.querySelectorAll('a[href], area[href]')).map(a => a.protocol + a.pathname)
                            .filter(h => /^(javascript|vbscript|data):/.test(h))})"""


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (make setup installs it with apt-get when run as root)")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"])
        try:
            yield chromium
        finally:
            chromium.close()


def visit(browser, url: str, local: str = "file:") -> dict:
    """Open ``url`` in a fresh browser context (storage of its own) where only ``local`` URLs load;
    what the page's scripts left behind, and the requests it tried."""
    context = browser.new_context()
    requests, dialogs = [], []

    def route(r):
        requests.append((r.request.method, r.request.url))
        return r.continue_() if r.request.url.startswith(local) else r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(1500)
    marks = page.evaluate(MARKS)
    context.close()
    writes = [f"{m} {u}" for m, u in requests if m != "GET" and "/api/" in u and "/formgrader/api/" not in u]
    return {**marks, "requests": [u for _, u in requests if "pwned" in u], "dialogs": dialogs, "writes": writes}


def assert_nothing_ran(marks: dict) -> None:
    assert marks["pwned"] is None and not marks["title"].startswith("PWNED"), marks
    assert marks["stored"] is None and not marks["links"], marks
    assert not marks["requests"] and not marks["dialogs"] and not marks["writes"], marks


def active_payload() -> str:
    return submissions.load_spec(REPO_ROOT / "tests" / "submissions" / "_hostile" / "active_content.py")["JS"]


@holding("active_content")
def test_feedback_page_runs_nothing_in_a_browser(graded, browser, tmp_path):
    """The feedback page of the active-content submission, opened in Debian's chromium: none of its
    payloads ran (each would mark the title, localStorage or window.__pwned, or request
    pwned.invalid). The same payload on a page of its own does, in the same browser."""
    root = graded[0]
    control = tmp_path / "control.html"
    control.write_text(f"<title>control</title><img src=x onerror=\"{active_payload().format('control')}\">")
    marks = visit(browser, control.as_uri())
    assert marks["pwned"] == ["control"] and marks["title"] == "PWNED control", marks
    assert marks["stored"] == "control" and marks["requests"], marks
    page = next(page for _, _, page in graded_files(root, "hostile-active_content"))
    assert_nothing_ran(visit(browser, page.as_uri()))


@holding("active_content")
def test_formgrader_runs_nothing_in_the_instructors_browser(graded, browser, tmp_path):
    """The instructor opens the active-content submission in nbgrader's formgrader (a Jupyter server
    on 127.0.0.1 in the graded course, logged in with its token): nothing of the submission runs,
    and the page makes no write through the server's API."""
    import subprocess
    import sys
    import time
    import urllib.request

    from course.authoring import studentlab
    root = graded[0]
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        sid = gb.find_submission_notebook(submissions.release_notebook(FIRST).stem, FIRST,
                                          "hostile-active_content").id
    port, token = studentlab.free_port(), secrets.token_hex(8)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    with open(tmp_path / "formgrader.log", "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}",
                                   "--ip=127.0.0.1", f"--IdentityProvider.token={token}",
                                   f"--ServerApp.root_dir={root}", *(["--allow-root"] if os.geteuid() == 0 else [])],
                                  cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "formgrader.log").read_text()
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2).read()
                break
            except OSError:
                time.sleep(0.5)
        marks = visit(browser, f"{base}/formgrader/submissions/{sid}/?token={token}", local=base)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert marks["title"] == submissions.release_notebook(FIRST).stem, marks  # the submission's page, rendered
    assert_nothing_ran(marks)


def test_each_part_is_one_xdist_group_and_every_spec_is_graded_once():
    """A part's tests run on one xdist worker, on its one run, apart from the other part's (so a stuck part
    fails only its own tests); every hostile spec is graded in exactly one part, and each part grades an
    honest submission after its hostile ones (student ids sort "zz-honest-" last)."""
    from tests.conftest import group_of
    hostile = [p.stem for p in submissions.generic_specs("hostile") if not judge_only(p)]
    assert sorted(s.removeprefix("hostile-") for _, s, _, _, k in PLAN if k == "hostile") == sorted(hostile)
    for part in PARTS:
        students = sorted(s for p, s, _, _, _ in PLAN if p == part)
        assert students and students[-1].startswith("zz-honest-"), (part, students)
        ids = [f"test_verdict[{part}-{s}]" for s in students] + [f"test_batch_completes[{part}]"]
        assert {group_of(f"tests/test_hostile.py::{i}") for i in ids} == {f"test_hostile-{part}"}
    assert set(LIMITS_PART) <= set(hostile), sorted(set(LIMITS_PART) - set(hostile))
