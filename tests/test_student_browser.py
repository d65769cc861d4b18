"""A student's JupyterLab in a real browser (Debian's chromium, driven by Playwright).

The lab runs from a student environment made from release/ alone (course.authoring.studentlab) with the
student settings. In the browser: no instructor tools are on offer; a solved 15-01 runs top to
bottom and Validate says that its visible checks pass (not nbgrader's "passes all the tests": the
hidden tests run at grading), in a measured time while the server keeps answering; Validate on the
blank notebook reports failures. Screenshots go to gradebook/screenshots/ (ignored by git).

``COURSE_TEST_BROWSER_TOPICS=1`` (``make test-browser-topics``) adds a slow test, not part of
``make test``: every topic's blank notebook run in the browser, checked and photographed.
"""
import json
import os
import re
import secrets
import shutil
import threading
import time
import urllib.request

import nbformat
import pytest

from course import REPO_ROOT
from course.authoring import studentlab
from course import notebook as nbtools
from course import assignments
from course.grading.class_run import submissions

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
A = "15-01" if "15-01" in assignments() else assignments()[0]
SHOTS = REPO_ROOT / "gradebook" / "screenshots"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed "
                                "(make setup installs it with apt-get when run as root)")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    playwright = pytest.importorskip("playwright.sync_api")
    home = tmp_path_factory.mktemp("student-lab")
    py = studentlab.make_student_env(home)
    blank = next((home / "release" / A).glob("*.ipynb"))
    nb = nbtools.read(blank)
    for c, s in zip(nb.cells, submissions.reference(A).cells):
        c.source = s.source
    (home / "release" / A / "solved").mkdir()
    nbformat.write(nb, home / "release" / A / "solved" / blank.name)
    # render every cell (JupyterLab draws only the visible ones by default), so the page shows them all
    settings = home / "release" / "jupyter" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    port, token = studentlab.free_port(), secrets.token_hex(8)
    proc = studentlab.start_lab(home, py, port, token)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            yield browser, f"http://127.0.0.1:{port}", token, blank.name, home
        finally:
            browser.close()
            proc.terminate()
            proc.wait(timeout=30)


def open_notebook(browser, base, token, path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{base}/lab/tree/{path}?reset&token={token}")  # reset: no layout restored from a previous page
    page.wait_for_selector(".jp-NotebookPanel-toolbar", timeout=60_000)
    page.wait_for_function("() => document.body.innerText.includes('| Idle')", timeout=60_000)  # kernel ready
    return page


def validate(page, timeout_ms=120_000) -> str:
    page.get_by_role("button", name="Validate").click()
    page.wait_for_selector(".jp-Dialog-content", timeout=timeout_ms)
    body = page.wait_for_selector(".jp-Dialog-body", timeout=timeout_ms)
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:  # the dialog first says it is validating
        text = body.inner_text()
        if re.search(r"Success|fail|error|Error|Tests", text):
            return text
        time.sleep(0.1)
    return body.inner_text()


def test_no_instructor_tools(lab):
    browser, base, token, name, _ = lab
    page = open_notebook(browser, base, token, f"{A}/{name}")
    menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
    assert "Nbgrader" not in menus, menus
    page.get_by_role("button", name="Validate").wait_for(timeout=30_000)
    for cmd in ("formgrader", "course list", "create assignment", "assignment list"):
        page.keyboard.press("Control+Shift+C")  # the command palette lists every command that exists
        page.keyboard.type(cmd)
        time.sleep(0.5)
        found = page.locator(".lm-CommandPalette-item").all_inner_texts()
        page.keyboard.press("Escape")
        assert not [f for f in found if cmd in f.lower()], (cmd, found)
    page.screenshot(path=str(SHOTS / "student-lab.png"))
    page.close()


class ServerWatch:
    """Asks the server for /api/status every 0.25 s on a thread while in the with-block; ``slowest``
    is its longest answer in seconds (inf when a request failed: ``error`` says why)."""

    def __init__(self, base, token):
        self.request = urllib.request.Request(f"{base}/api/status", headers={"Authorization": f"token {token}"})
        self.slowest, self.error, self._stop = 0.0, None, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(self.request, timeout=60) as r:
                    r.read()
            except OSError as e:
                self.slowest, self.error = float("inf"), repr(e)
                return
            self.slowest = max(self.slowest, time.monotonic() - t0)
            self._stop.wait(0.25)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=90)


VISIBLE_ONLY = "Success! The visible checks pass. Hidden tests run when your work is graded."


def test_solved_notebook_runs_and_validates(lab):
    """Validate's dialog on the solved notebook says that the visible checks pass and that the hidden
    tests run at grading (the kit's labextension rewrites nbgrader's "passes all the tests"). Its wall
    time, click to dialog, is printed and kept in gradebook/screenshots/validate-timing.json with the
    machine's load (the issue's aim is 10 s on a quiet machine; asserted only at 60 s), and the server
    answers other requests meanwhile."""
    browser, base, token, name, _ = lab
    page = open_notebook(browser, base, token, f"{A}/solved/{name}")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    page.wait_for_function("() => { const p = Array.from(document.querySelectorAll("
                           "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt'));"
                           " return p.length > 0 && p.every(e => /\\[\\d+\\]/.test(e.textContent)); }",
                           timeout=120_000)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()
    assert not [e for e in errors if "Error" in e], errors[:3]
    load_before = os.getloadavg()[0]
    with ServerWatch(base, token) as server:
        t0 = time.monotonic()
        text = validate(page)
        seconds = time.monotonic() - t0
    page.screenshot(path=str(SHOTS / "validate-success.png"))
    record = {"assignment": A, "validate_seconds": round(seconds, 1), "slowest_other_request_s": round(server.slowest, 2),
              "load_before": round(load_before, 1), "load_after": round(os.getloadavg()[0], 1), "cpus": os.cpu_count()}
    (SHOTS / "validate-timing.json").write_text(json.dumps(record) + "\n")
    print(f"\nValidate on the solved {A}: {record}")
    assert VISIBLE_ONLY in text, text
    assert "passes all the tests" not in text, text
    assert seconds < 60, record
    assert server.slowest < 1.0, f"the server took {server.slowest:.1f} s to answer while Validate ran " \
                                 f"({server.error or record})"
    page.close()


def test_blank_notebook_fails_validation(lab):
    browser, base, token, name, _ = lab
    page = open_notebook(browser, base, token, f"{A}/{name}")
    text = validate(page)
    page.screenshot(path=str(SHOTS / "validate-blank.png"))
    assert "Success" not in text and ("NotImplementedError" in text or "failed" in text.lower()), text
    assert "The following cell failed" in text, text  # nbgrader's own failure report, left as it is
    page.close()


def test_validate_does_not_freeze_the_server(lab):
    """Validate on a notebook stuck in a loop: the server answers other requests within 1 s meanwhile,
    and the validation ends at the per-cell limit with the notebook reported as failing."""
    import json
    import threading
    import urllib.request

    _, base, token, name, home = lab
    loop = home / "release" / A / "loop"
    loop.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("while True:\n    pass")])
    nbformat.write(nb, loop / name)
    auth = {"Authorization": f"token {token}"}
    result = {}

    def run_validate():
        req = urllib.request.Request(f"{base}/assignments/validate", method="POST", headers=auth,
                                     data=f"path={A}/loop/{name}".encode())
        t0 = time.monotonic()
        with urllib.request.urlopen(req, timeout=300) as r:
            result["reply"] = json.loads(r.read())
        result["seconds"] = time.monotonic() - t0

    worker = threading.Thread(target=run_validate)
    worker.start()
    time.sleep(3)  # the validation is under way: its kernel is looping
    slowest = 0.0
    while worker.is_alive() and slowest < 5:
        t0 = time.monotonic()
        with urllib.request.urlopen(urllib.request.Request(f"{base}/api/status", headers=auth), timeout=60) as r:
            r.read()
        slowest = max(slowest, time.monotonic() - t0)
        time.sleep(0.5)
    worker.join(timeout=300)
    assert slowest < 1.0, f"the server took {slowest:.1f} s to answer while Validate ran"
    assert "reply" in result, "Validate never answered"
    assert result["seconds"] < 120, result


def _bar_saved(path):
    """The file holds the executed cell, its widget view, and a non-empty widget state."""
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:  # caught mid-write
        return False
    cell = nb.cells[0]
    views = [o for o in cell.get("outputs", []) if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return bool(cell.get("execution_count") and views and state)


def test_progress_bars_survive_reopening(lab):
    """tqdm's bars are widgets: run, save, open again, and the bar is still drawn (the kit turns on
    the widget manager's saveState), not "Error displaying widget"."""
    browser, base, token, name, home = lab
    folder = home / "release" / A / "bars"
    folder.mkdir()
    code = "from tqdm.auto import tqdm\nfor _ in tqdm(range(5), desc='steps'):\n    pass"
    meta = nbtools.read(home / "release" / A / name).metadata  # its kernel: no "select a kernel" dialog
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)], metadata=meta),
                   folder / "bars.ipynb")
    page = open_notebook(browser, base, token, f"{A}/bars/bars.ipynb")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    page.wait_for_selector(".jp-OutputArea-output .widget-html-content", timeout=60_000)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
                           ".jp-CodeCell .jp-InputPrompt')).some(e => /\\[\\d+\\]/.test(e.textContent))",
                           timeout=60_000)
    # An autosave may already have written an empty widget state before the cell ran: wait for the
    # file to hold the run cell, its bar and the bar's state, saving again until it does.
    deadline, saved = time.monotonic() + 60, False
    while not saved and time.monotonic() < deadline:
        page.keyboard.press("Control+s")
        for _ in range(20):
            saved = _bar_saved(folder / "bars.ipynb")
            if saved:
                break
            time.sleep(0.5)
    assert saved, "the saved notebook holds no run bar with its widget state: " + (folder / "bars.ipynb").read_text()[:800]
    page.close()
    again = open_notebook(browser, base, token, f"{A}/bars/bars.ipynb")
    # The saved bar is drawn once the widget manager has restored its state: poll for it (under a
    # loaded CI machine that takes a while), then judge what is on the page.
    deadline, text, reloaded = time.monotonic() + 120, [], False
    while time.monotonic() < deadline:
        text = again.locator(".jp-OutputArea-output").all_inner_texts()
        if any("5/5" in t or "Error displaying widget" in t for t in text):
            break
        if not text and not reloaded and time.monotonic() > deadline - 75:
            # a loaded machine sometimes draws the panel without its outputs: open it once more
            again.reload()
            again.wait_for_selector(".jp-NotebookPanel-toolbar", timeout=60_000)
            reloaded = True
        time.sleep(1)
    again.screenshot(path=str(SHOTS / "bars-reopened.png"))
    assert text, ("the reopened notebook shows no output at all: " + again.locator("body").inner_text()[:600]
                  + "\nthe file holds: " + (folder / "bars.ipynb").read_text()[:800])
    assert not any("Error displaying widget" in t for t in text), text
    assert any("steps" in t and "5/5" in t for t in text), text
    again.close()


# ---- Every topic's blank notebook, run in the browser (opt-in: make test-browser-topics) ----------------

needs_topics = pytest.mark.skipif(not os.environ.get("COURSE_TEST_BROWSER_TOPICS"),
                                  reason="runs every topic's blank notebook in the browser (minutes): "
                                         "make test-browser-topics (COURSE_TEST_BROWSER_TOPICS=1)")
CODE_CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell"
PROMPTS_JS = f"() => Array.from(document.querySelectorAll('{CODE_CELLS} .jp-InputPrompt')).map(e => e.textContent.trim())"


def _run_menu(page, item):
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.get_by_text(item, exact=True).click()


def run_every_cell(page, timeout_s=900) -> int:
    """Run All Cells, as a student does; JupyterLab stops at a failing cell (an unfinished exercise's
    checks), so go on from the first cell that did not run with "Run Selected Cell and All Below" (or
    "Run Selected Cell and Do not Advance" for the last one) until every code cell has run. Returns how
    many runs that took."""
    deadline, target, runs = time.monotonic() + timeout_s, 0, 0
    _run_menu(page, "Run All Cells")
    while True:
        runs += 1
        left_ms = max(1, int((deadline - time.monotonic()) * 1000))
        # the run has reached the cell it started from, and then nothing is queued or running
        page.wait_for_function("([js, i]) => { const p = eval(js)(); return p.length > i && p[i] !== '[ ]:'; }",
                               arg=[PROMPTS_JS, target], timeout=left_ms)
        page.wait_for_function("js => !eval(js)().some(t => t.includes('*')) && "
                               "document.body.innerText.includes('| Idle')", arg=PROMPTS_JS, timeout=left_ms)
        prompts = page.evaluate(PROMPTS_JS)
        unrun = [i for i, t in enumerate(prompts) if not re.search(r"\[\d+\]", t)]
        if not unrun:
            return runs
        assert unrun[0] > target or runs == 1, f"cell {unrun[0]} did not run twice in a row: {prompts}"
        target = unrun[0]
        print(f"  run {runs + 1}: from code cell {target}", flush=True)
        page.locator(CODE_CELLS).nth(target).locator(".jp-InputPrompt").click()
        # JupyterLab offers "and All Below" only above the notebook's last cell
        _run_menu(page, "Run Selected Cell and Do not Advance" if target == len(prompts) - 1
                  else "Run Selected Cell and All Below")


def _cell_outputs(page) -> list[list[dict]]:
    """Per code cell on the page: its outputs as (mime type, text)."""
    return page.evaluate(f"""() => Array.from(document.querySelectorAll('{CODE_CELLS}')).map(c =>
        Array.from(c.querySelectorAll('.jp-OutputArea-output')).map(o => ({{
            mime: o.getAttribute('data-mime-type') || '', text: o.innerText,
            image: !!o.querySelector('img, canvas, svg')}})))""")


def _shoot_whole_notebook(page, path):
    """One picture of the whole notebook: the window is made as tall as the notebook (Chromium draws at
    most 16384 px, so a taller notebook is scaled down to fit)."""
    outer = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer"
    height = page.evaluate(f"() => document.querySelector('{outer}').scrollHeight")
    chrome = 150  # menus, tab bar, toolbar, status bar
    scale = min(1.0, 16000 / (height + chrome))
    if scale < 1.0:
        page.evaluate(f"() => {{ document.body.style.zoom = '{scale:.3f}'; }}")
    page.set_viewport_size({"width": 1400, "height": int((height + chrome) * scale) + 50})
    time.sleep(1)
    page.evaluate(f"() => {{ document.querySelector('{outer}').scrollTop = 0; }}")  # the run left it at the end
    time.sleep(0.5)
    page.screenshot(path=str(path))


NOT_WRITTEN = re.compile(r"^NotImplementedError: .*\bis not written yet\b")


@needs_topics
@pytest.mark.parametrize("assignment", assignments())
def test_blank_run_in_the_browser(lab, assignment):
    """A topic's blank notebook from release/, every cell run in the browser with the demos on (as a
    student runs it, not as Validate does). The only error allowed is the one line course.student.checks
    makes of an exercise's stub ("ScaledMul.forward is not written yet (line 3 of this cell needs it)"):
    every check cell of an exercise shows it, and a demo that calls an exercise not written yet may show
    it too (one line, no traceback). Any other error or traceback fails, and so does a picture drawn
    next to an error (an empty plot). The page is kept as gradebook/screenshots/blank-<id>.png."""
    browser, base, token, _, home = lab
    blank = next((home / "release" / assignment).glob("*.ipynb"))
    cells = [c for c in nbtools.read(blank).cells if c.cell_type == "code"]
    is_test = [bool(c.metadata.get("nbgrader", {}).get("grade")) and not c.metadata.get("nbgrader", {}).get("solution")
               for c in cells]
    page = open_notebook(browser, base, token, f"{assignment}/{blank.name}")
    t0 = time.monotonic()
    try:
        runs = run_every_cell(page)
        seconds = time.monotonic() - t0
        outputs = _cell_outputs(page)
    finally:
        _shoot_whole_notebook(page, SHOTS / f"blank-{assignment}.png")
        page.close()
        _shut_down_kernels(base, token)
    assert len(outputs) == len(cells), (len(outputs), len(cells))
    problems, demo_lines = [], []
    for i, (outs, test) in enumerate(zip(outputs, is_test)):
        errors = [o["text"].strip() for o in outs if o["mime"] == "application/vnd.jupyter.stderr"
                  and _exception_of(o["text"])]
        first_line = cells[i].source.strip().splitlines()[0][:80] if cells[i].source.strip() else ""
        if test and not errors:
            problems.append(f"check cell {i} ({first_line}): the checks of a blank exercise raised nothing")
        for text in errors:
            if NOT_WRITTEN.match(text) and "\n" not in text:
                if not test:
                    demo_lines.append(f"  demo cell {i}: {text}")
            else:
                problems.append(f"{'check' if test else 'demo'} cell {i} ({first_line}):\n{text[-800:]}")
        for o in outs:
            if o["mime"] != "application/vnd.jupyter.stderr" and "Traceback (most recent call last)" in o["text"]:
                problems.append(f"cell {i} ({first_line}) prints a traceback:\n{o['text'][-800:]}")
        if errors and any(o["image"] for o in outs):
            problems.append(f"cell {i} ({first_line}): a picture drawn next to an error")
    print(f"\n{assignment}: every cell of the blank notebook ran in {seconds:.0f} s ({runs} runs; load "
          f"{os.getloadavg()[0]:.1f}); {sum(is_test)} check cells; demos that need an unwritten exercise:\n"
          + ("\n".join(demo_lines) or "  none"))
    assert not problems, "\n".join(problems)


def _exception_of(text):
    """The exception a stderr output shows (its last "SomeError" line), or None for plain stderr."""
    names = re.findall(r"^\s*([A-Za-z_][\w.]*(?:Error|Exception|Failed|Interrupt|Exit))\b", text, re.M)
    return names[-1] if names else ("Traceback" if "Traceback (most recent call last)" in text else None)


def _shut_down_kernels(base, token):
    """Each topic's kernel holds torch: end them between topics."""
    auth = {"Authorization": f"token {token}"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/sessions", headers=auth), timeout=60) as r:
        sessions = json.loads(r.read())
    for s in sessions:
        urllib.request.urlopen(urllib.request.Request(f"{base}/api/sessions/{s['id']}", method="DELETE",
                                                      headers=auth), timeout=60).read()
