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
from course.grading import submissions

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
