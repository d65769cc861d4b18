"""What crosses back from a submission into the graded notebook, its feedback page and the formgrader,
step by step and without a kernel: inert output only (InertOutput), student markdown and raw cells
made inert (SanitizeStudentCells, safe_html), every kernel message charged to the output budget
(OutputBudget), outputs measured as written (CapOutputSize), forged verdict lines marked
(MarkForgedVerdicts), and the verdict whole and last (the configured order)."""
import base64
import os
import struct
import zlib

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output, new_raw_cell

from course.grading.autograde import safe_html
from course.grading.autograde.preprocessors.forged_verdicts import MARK, MarkForgedVerdicts, looks_like_verdict
from course.grading.autograde.preprocessors.inert_output import InertOutput
from course.grading.autograde.preprocessors.output_budget import OutputBudget
from course.grading.autograde.preprocessors.output_caps import CapOutputSize, output_cost
from course.grading.autograde.preprocessors.student_cells import SanitizeStudentCells
from tests.html_scan import active, page_scripts


def png_b64(w=2, h=2) -> str:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * w for _ in range(h))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    return base64.b64encode(png).decode()


def jpeg_b64(w=3, h=2) -> str:
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (200, 10, 10)).save(buf, "JPEG")
    return base64.b64encode(buf.getvalue()).decode()


JPEG = jpeg_b64()


def declared(mime: str, w: int, h: int) -> str:
    """A few bytes that declare a w x h image: a PNG's IHDR, or a JPEG's start-of-frame after an APP0 segment."""
    if mime == "image/png":
        ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
        raw = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    else:
        raw = (b"\xff\xd8" + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
               + b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", h, w) + b"\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01")
    return base64.b64encode(raw).decode()


def render_markdown(source: str) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    return markdown2html_mistune(source)


# ------------------------------------------------------------------ InertOutput

def run_inert(outputs, **cell):
    code = new_code_cell("x")
    code.update(nbformat.from_dict({"outputs": outputs, **cell}))  # unvalidated, as a kernel may send it
    nb = nbformat.from_dict({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [code]})
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"m": {}}}}
    InertOutput().preprocess(nb, {})
    assert "widgets" not in nb.metadata
    nbformat.validate(nb)
    return nb.cells[0]


def test_active_outputs_are_removed_and_say_so():
    outs = [
        new_output("display_data", data={"text/html": "<script>alert(1)</script>", "text/plain": "<HTML object>"}),
        new_output("display_data", data={"application/javascript": "alert(1)"}),
        new_output("display_data", data={"image/svg+xml": "<svg><script>alert(1)</script></svg>"}),
        new_output("display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m"}}),
        new_output("display_data", data={"text/markdown": "<img src=x onerror=alert(1)>", "text/latex": "$x$"}),
        new_output("display_data", data={"image/png": "PHNjcmlwdD4=\"><script>alert(1)</script>"}),
        new_output("display_data", data={"image/png": base64.b64encode(b"<svg onload=alert(1)>").decode()}),
        new_output("display_data", data={"image/png": png_b64()},
                   metadata={"image/png": {"width": "1 onerror=alert(1)", "height": 2}, "filenames": {"x": 1}}),
    ]
    cell = run_inert(outs)
    data = [o["data"] for o in cell.outputs]
    assert data[0] == {"text/plain": "<HTML object>"}
    for d, mime in zip(data[1:7], ["application/javascript", "image/svg+xml", "widget-view", "text/latex",
                                   "image/png", "image/png"]):
        assert list(d) == ["text/plain"] and mime in d["text/plain"] and "removed" in d["text/plain"], d
    assert data[7] == {"image/png": png_b64()} and cell.outputs[7]["metadata"] == {"image/png": {"height": 2}}


def test_prompt_numbers_stream_names_and_unknown_outputs_are_made_plain():
    bad = {"output_type": "execute_result", "execution_count": "<script>alert(1)</script>",
           "data": {"text/plain": "1"}, "metadata": {}}
    stream = {"output_type": "stream", "name": "\"><script>alert(1)</script>", "text": ["a", "b"]}
    cell = run_inert([bad, stream, {"output_type": "comm_open", "data": {}}], execution_count=True)
    assert cell.execution_count is None
    assert [o["output_type"] for o in cell.outputs] == ["execute_result", "stream"]
    assert cell.outputs[0]["execution_count"] is None
    assert cell.outputs[1] == {"output_type": "stream", "name": "stdout", "text": "ab"}


@pytest.mark.parametrize("mime", ["image/png", "image/jpeg"])
def test_an_image_that_declares_too_many_pixels_is_removed_and_said(mime):
    """A PNG or JPEG header can declare a 60000 x 60000 image in a few bytes, which a browser showing the
    feedback or the formgrader would try to decode (gigabytes); one at the limits and a real figure are kept."""
    from course.grading.autograde.preprocessors import inert_output as io_
    side = io_.MAX_SIDE
    outs = [new_output("display_data", data={mime: declared(mime, 60_000, 60_000), "text/plain": "<Figure>"}),
            new_output("display_data", data={mime: declared(mime, side + 1, 10)}),
            new_output("display_data", data={mime: declared(mime, 6_000, 6_000)}),  # each side allowed, too many in all
            new_output("display_data", data={mime: declared(mime, side, io_.MAX_PIXELS // side)}),
            new_output("display_data", data={mime: png_b64(4, 3) if mime == "image/png" else jpeg_b64(4, 3)},
                       metadata={mime: {"width": side + 1, "height": 30}})]
    cell = run_inert(outs)
    data = [o.get("data", {}) for o in cell.outputs]
    assert data[0] == {"text/plain": f"<Figure>\n[{mime}: 60000 x 60000 pixels, over the {side} a side and "
                                     f"{io_.MAX_PIXELS // 10**6} million in all that a graded notebook keeps: image removed]"}
    assert mime not in data[1] and f"{side + 1} x 10 pixels" in data[1]["text/plain"]
    assert mime not in data[2] and "6000 x 6000 pixels" in data[2]["text/plain"]
    assert list(data[3]) == [mime] and list(data[4]) == [mime]
    assert cell.outputs[4]["metadata"] == {mime: {"height": 30}}  # a display width past the limit is dropped


def test_inert_output_is_kept_as_it_was():
    outs = [new_output("stream", name="stdout", text="<b>not html</b>\n"),
            new_output("stream", name="stderr", text="warning\n"),
            new_output("error", ename="ValueError", evalue="bad <x>", traceback=["\x1b[31mTraceback", "line"]),
            new_output("display_data", data={"image/png": png_b64(), "text/plain": "<Figure>"},
                       metadata={"image/png": {"width": 640, "height": 480}}),
            new_output("display_data", data={"image/jpeg": JPEG}),
            new_output("execute_result", data={"text/plain": "0.75"}, execution_count=4)]
    want = nbformat.from_dict([dict(o) for o in outs])
    cell = run_inert(outs, execution_count=4)
    assert cell.outputs == want and cell.execution_count == 4


def test_saveautogrades_still_reads_the_score():
    from nbgrader.utils import determine_grade
    cell = run_inert([new_output("stream", name="stdout", text="Score for this cell: 1.50 / 3\n"),
                      new_output("execute_result", data={"text/plain": "1.5"}, execution_count=3)])
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "points": 3, "grade_id": "t"}
    assert determine_grade(cell) == (1.5, 3)


# ------------------------------------------------------------------ student markdown and raw cells

HOSTILE_MARKDOWN = [
    "<script>document.title='PWNED'</script>",
    "Look: <img src=x onerror=\"document.title='PWNED'\">",
    "[click me](javascript:document.title='PWNED')",
    "[click me](JaVaScRiPt&#58;alert(1))",
    "<javascript:alert(1)>",
    "[ref]\n\n[ref]: vbscript:msgbox(1)",
    "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "![x](attachment:evil.svg)",
    "<a href=\"data:text/html,<script>alert(1)</script>\">x</a>",
    "<svg><script>alert(1)</script></svg>",
    "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
    "<details open ontoggle=alert(1)>x</details>",
    "<div style=\"position:fixed;top:0\">Score: 3/3</div>",
    "<pre>\n\n[x](javascript:alert(3))\n\n</pre>",
    "<form action=/api/contents method=post><button>go</button></form>",
    "```mermaid\ngraph TD; A-->B\n```",
]


@pytest.mark.parametrize("source", HOSTILE_MARKDOWN)
def test_hostile_markdown_renders_inert(source):
    out = safe_html.markdown(source)
    assert not active(render_markdown(out)), render_markdown(out)
    assert not active(render_markdown(safe_html.markdown(out)))  # a regrade of the graded copy too


def test_markdown_rewritten_as_one_html_block():
    """A rewritten cell is one line of HTML: markdown is not parsed inside it again."""
    out = safe_html.markdown("<pre>\n\n[x](javascript:alert(3))\n\n</pre>\n\n# Heading")
    assert "\n" not in out and out.startswith("<div>") and "[x](javascript:alert(3))" in out
    page = render_markdown(out)
    assert not active(page) and "<h1>Heading" in page and "<a" not in page.split("</pre>")[0]


def test_tex_that_makes_links_loses_its_backslash():
    out = safe_html.markdown("$\\href{javascript:alert(1)}{x}$ and \\(\\class{a}{b}\\) and $\\frac{1}{2}$")
    assert "\\href" not in out and "\\class" not in out and "\\frac" in out and "\u29f5href" in out


GOOD_MARKDOWN = ["# Title\n\nSome *text*, `x<y`, $a<b$ and $$\\sum_i x_i$$.",
                 "- item [a link](https://pytorch.org/docs) and <https://example.org>\n- [section](#title)",
                 "| a | b |\n|:-:|--:|\n| 1 | 2 |", "```python\nif a < b and c > d:\n    pass\n```",
                 "> quoted & kept", "![plot](https://example.org/plot.png)"]


@pytest.mark.parametrize("source", GOOD_MARKDOWN)
def test_inert_markdown_is_kept_as_written(source):
    assert safe_html.markdown(source) == source


def test_release_markdown_is_kept_as_written():
    from course import RELEASE_DIR
    cells = [c for p in sorted(RELEASE_DIR.glob("*/*.ipynb")) for c in nbformat.read(p, 4).cells
             if c.cell_type == "markdown"]
    assert cells
    changed = [c.source[:80] for c in cells if safe_html.markdown(c.source) != c.source]
    assert not changed, changed


def test_raw_cells_hold_inert_html():
    out = safe_html.raw("<b>bold</b><script>alert(1)</script><img src=x onerror=alert(1)> a < b")
    assert out == "<b>bold</b><img> a &lt; b"


@pytest.mark.parametrize("tag", ["<div>", "<blockquote>"])
def test_nested_html_in_a_students_cell_costs_the_grader_little(tag):
    """Red team, 2026-12-02 (sixth): nh3's HTML parser scans its stack of open elements for each block tag,
    so nested tags in a student's markdown or raw cell cost the grader quadratic time outside every sandbox
    and limit: ``"<div>" * 40_000`` (200 kB, within the file cap many times over) took 25 s of CPU to
    sanitize, and the feedback page sanitizes it again. Past MAX_TAGS tags the cell is shown as its text."""
    import time
    safe_html.markdown("<b>warm</b>")
    source = tag * 20_000 + "<script>alert(1)</script>"
    for make in (safe_html.markdown, safe_html.raw):
        began = time.process_time()
        out = make(source)
        spent = time.process_time() - began
        assert spent < 0.5, (f"safe_html.{make.__name__} of {tag!r} x 20,000 ({len(source):,} characters) cost "
                             f"{spent:.2f} s of CPU; expected under 0.5 s (the cell shown as its text)")
        assert "<script" not in out and "&lt;script&gt;" in out, out[-200:]
    small = tag * 10 + "<b>kept</b>"
    assert "<b>kept</b>" in safe_html.raw(small) and "<b>kept</b>" in safe_html.markdown(small)


@pytest.fixture
def gradebook(tmp_path, monkeypatch):
    import sys

    from nbgrader.api import Gradebook
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gb:
        gb.add_assignment("a")
        gb.add_notebook("n", "a")
        gb.add_source_cell("intro", "n", "a", cell_type="markdown", locked=True, checksum="x",
                           source="<b>instructor</b> <script>/* the instructor's own */</script>")
        gb.add_source_cell("answer", "n", "a", cell_type="markdown", locked=False, checksum="y", source="")
    return {"nbgrader": {"db_url": db, "notebook": "n", "assignment": "a", "student": "s"}}


def graded_cell(cell, gid, locked):
    cell.metadata["nbgrader"] = {"grade_id": gid, "locked": locked, "grade": False, "solution": not locked,
                                 "schema_version": 3}
    return cell


def test_student_cells_sanitized_instructor_cells_kept(gradebook):
    instructor = graded_cell(new_markdown_cell("<b>instructor</b> <script>/* the instructor's own */</script>"),
                             "intro", True)
    answer = graded_cell(new_markdown_cell("<img src=x onerror=alert(1)> my answer"), "answer", False)
    answer["attachments"] = {"evil.svg": {"image/svg+xml": "PHN2Zz4="}}
    claims_locked = graded_cell(new_markdown_cell("<script>alert(2)</script>"), "intro", True)  # forged source
    added = new_markdown_cell("[x](javascript:alert(3))")
    added["attachments"] = {"a.png": {"image/png": png_b64()}}
    raw = new_raw_cell("<script>alert(4)</script>text", metadata={"raw_mimetype": "text/x-python", "format": "x"})
    nb = new_notebook(cells=[instructor, answer, claims_locked, added, raw])
    before = instructor.source
    SanitizeStudentCells().preprocess(nb, gradebook)
    assert instructor.source == before
    for cell in nb.cells[1:4]:
        assert "attachments" not in cell and not active(render_markdown(cell.source)), cell.source
    assert "my answer" in nb.cells[1].source
    assert raw.source == "text" and "raw_mimetype" not in raw.metadata and "format" not in raw.metadata


def test_without_a_gradebook_every_cell_is_the_students():
    nb = new_notebook(cells=[graded_cell(new_markdown_cell("<script>x</script>hi"), "intro", True)])
    SanitizeStudentCells().preprocess(nb, {})
    assert "script" not in nb.cells[0].source


# ------------------------------------------------------------------ the feedback page (second layer)

def feedback_html(nb, course_settings=True) -> str:
    """The feedback page as nbgrader's generate_feedback writes it, with the course's settings."""
    import nbgrader
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    from course.grading import config

    c = Config()
    if course_settings:
        config.html_sanitizing(c)
    c.HTMLExporter.template_name = "feedback"
    formgrader = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader")
    c.HTMLExporter.extra_template_basedirs = [os.path.join(formgrader, "templates")]
    c.HTMLExporter.extra_template_paths = [os.path.join(formgrader, "static", "node_modules", "bootstrap", "dist",
                                                        "css")]
    res = {"nbgrader": {"notebook": "n", "score": 1, "max_score": 3, "late_penalty": 0}}
    page, _ = HTMLExporter(config=c).from_notebook_node(nb, resources=res)
    return page


def test_feedback_page_keeps_its_content_and_drops_old_active_content():
    """An autograded notebook from before these steps (or one they missed) still renders inert."""
    md = new_markdown_cell("# Heading\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![i](attachment:i.png) "
                           "<script>document.title='PWNED'</script><img src=x onerror=alert(1)>")
    md["attachments"] = {"i.png": {"image/png": png_b64()}}
    code = new_code_cell("if a < b:\n    pass", execution_count=1, outputs=[
        new_output("stream", name="stdout", text="<script>alert(1)</script>\n"),
        new_output("display_data", data={"text/html": "<script>alert(2)</script><b>bold</b>"}),
        new_output("display_data", data={"application/javascript": "alert(3)"}),
        new_output("display_data", data={"image/png": png_b64()})])
    raw = new_raw_cell("<script>alert(4)</script><i>raw</i>")
    nb = new_notebook(cells=[md, code, raw])
    page = feedback_html(nb)
    baseline = page_scripts(feedback_html(new_notebook(cells=[new_markdown_cell("# plain")])))
    assert not active(page, allowed_scripts=baseline), active(page, baseline)
    assert len(active(feedback_html(nb, course_settings=False), baseline)) >= 4  # nbgrader's own settings
    for kept in ("<h1", "<table", "class=\"highlight", "<b>bold</b>", "<i>raw</i>", "&lt;script&gt;alert(1)",
                 f"data:image/png;base64,{png_b64()}", "<span class=\"k\">if</span>"):
        assert kept in page, kept
    assert page.count("<img") == 3  # the attachment, the PNG output, the stripped <img>


@pytest.mark.parametrize("case", ["dots in a code cell", "a lexer named by the cell's metadata",
                                  "a lexer named by a markdown fence"])
def test_highlighting_a_cell_costs_the_feedback_page_linear_time(case):
    """Red team, 2026-12-02 (seventh): the feedback and formgrader pages highlight code with pygments, whose
    lexers are quadratic on some inputs, outside every sandbox and limit, and the lexer was the student's to
    choose: a code cell's ``magics_language`` metadata (kept through autograde) or a markdown fence's language.
    Before: 16,000 dots in a code cell (the course's own lexer) 4.9 s of CPU, 12,000 spaces under the AutoIt lexer
    30.6 s, 6,000 in an AutoIt fence 8.0 s; the 2 MiB text cap allowed about a day. Now the course's lexers only,
    and plain text past a budget of CPU per character."""
    import time
    cell = {"dots in a code cell": new_code_cell("." * 24_000),
            "a lexer named by the cell's metadata": new_code_cell(" " * 6_000),
            "a lexer named by a markdown fence": new_markdown_cell("```autoit\n" + " " * 6_000 + "\n```\n")}[case]
    if case == "a lexer named by the cell's metadata":
        cell.metadata["magics_language"] = "autoit"
    if cell.cell_type == "markdown":
        cell.source = safe_html.markdown(cell.source)
    nb = new_notebook(cells=[cell], metadata={"language_info": {"name": "python", "pygments_lexer": "ipython3"}})
    feedback_html(new_notebook(cells=[new_code_cell("x = 1")]))  # templates loaded before the clock starts
    began = time.process_time()
    page = feedback_html(nb)
    spent = time.process_time() - began
    allowed = 1.0 + 100e-6 * len(cell.source)  # linear: twice the budget of safe_html.highlight, plus the page
    assert spent < allowed, (f"{case}: the feedback page of one cell of {len(cell.source):,} characters cost the "
                             f"grader {spent:.1f} s of CPU; expected under {allowed:.1f} s, 1 s and 100 us a character "
                             "(the course's lexer only, plain text past the highlighting budget)")
    assert ("." * 1000 if case == "dots in a code cell" else " " * 1000) in page, (
        f"{case}: the cell's text is not on the feedback page")


@pytest.mark.parametrize("unit", ["\\\\[", "\\begin{a}", "\\begin{a}$$"])
def test_math_without_its_closer_costs_the_grader_little(unit):
    """Red team, 2026-12-02 (seventh): nbconvert's markdown parser finds math with lazy patterns over the whole
    cell, so each opener without its closer (``\\\\[``, ``\\\\(``, ``\\begin{x}``) scans to the end of the text:
    quadratic, outside every sandbox and limit, at autograde (the student's markdown is parsed to be made inert)
    and again for every feedback and formgrader page. Before: 4,000 ``\\\\[`` (12 kB) 0.93 s a parse, 3,500
    ``\\begin{a}`` (32 kB) 1.55 s, 7,000 (64 kB) 6.3 s; the 2 MiB text cap allowed hours. Past MATH_STEPS (openers x
    characters) the cell is shown as its text, whose backslashes and dollars no later parse reads as math."""
    import time
    source = unit * (32_000 // len(unit))
    feedback_html(new_notebook(cells=[new_markdown_cell("$x$")]))  # templates and parser loaded first
    began = time.process_time()
    kept = safe_html.markdown(source)
    page = feedback_html(new_notebook(cells=[new_markdown_cell(kept)]))
    spent = time.process_time() - began
    assert spent < 1.0, (f"a student's markdown cell of {len(source):,} characters made of {unit!r} cost the grader "
                         f"{spent:.1f} s of CPU to make inert and render; expected under 1 s (shown as its text past "
                         "MATH_STEPS)")
    assert unit.replace("$", "") * 100 in page.replace("$", "") or unit * 100 in page, (
        f"the text of a cell made of {unit!r} is not on its feedback page")


def test_math_spread_over_many_cells_shares_one_budget():
    """The math budget is the notebook's: 40 cells of 3,000 characters of ``\\\\[``, each within it alone, cost
    autograde 2.4 s of CPU before (40 quadratic parses; the 2 MiB text cap allowed about 700 such cells, and each
    page parses them again). Past MATH_STEPS in all, cells are shown as their text."""
    import time
    cells = [new_markdown_cell("\\\\[" * 1_000) for _ in range(40)]
    safe_html.markdown("$x$")  # the parser loaded first
    began = time.process_time()
    SanitizeStudentCells().preprocess(new_notebook(cells=cells), {})
    spent = time.process_time() - began
    as_text = sum(c.source.startswith("<div><pre>") for c in cells)
    assert as_text >= 30 and spent < 1.0, (f"40 markdown cells of 3,000 characters of math openers: {as_text} shown as "
                                           f"text, {spent:.1f} s of CPU; expected most shown as text once the "
                                           "notebook's budget of math steps is spent, under 1 s")


def test_a_line_of_brackets_costs_the_feedback_page_little():
    """Red team, 2026-12-02 (seventh): the feedback and formgrader templates pass every rendered markdown cell
    through nbconvert's ``strip_files_prefix``, whose pattern scans from each ``[`` to the end of its line: a
    student's cell of 16,000 ``[`` on one line (inert markdown, kept as written) cost the page 3.3 s of CPU, 8,000
    1.1 s, quadratic. The course's filter of that name is linear and rewrites ``files/`` links as nbconvert's does."""
    import time
    source = "[" * 16_000
    feedback_html(new_notebook(cells=[new_markdown_cell("[x](files/a.png)")]))  # templates loaded first
    began = time.process_time()
    page = feedback_html(new_notebook(cells=[new_markdown_cell(safe_html.markdown(source))]))
    spent = time.process_time() - began
    assert spent < 1.0, (f"a markdown cell of {len(source):,} '[' on one line cost the feedback page {spent:.1f} s "
                         "of CPU; expected under 1 s")
    assert "[" * 1000 in page, "the cell's brackets are not on its feedback page"
    for before, after in (('<img src="files/plot.png">', '<img src="plot.png">'), ("<a href='/files/n.txt'>", "<a href='n.txt'>"),
                          ("![plot](files/p.png) [n](/files/n.txt)", "![plot](p.png) [n](n.txt)")):
        assert safe_html.strip_files_prefix(before) == after, (
            f"strip_files_prefix({before!r}) gave {safe_html.strip_files_prefix(before)!r}; expected {after!r}")


def test_ordinary_math_in_a_students_cell_is_kept_as_written():
    """The math budget is far above what an answer holds: formulas stay markdown, rendered by the page."""
    source = "Energy: $E = mc^2$, and\n\n\\\\[ \\sum_i x_i \\\\]\n\n\\begin{align} a &= b \\end{align}\n" * 40
    assert safe_html.markdown(source) == source


def test_a_page_has_one_budget_for_highlighting(monkeypatch):
    """Each cell's highlighting stops at its own budget, so the cells of a page together are bounded by the page's
    (PAGE_SECONDS, lowered here): past it, cells are plain text. Without it a page of 2,000 cells each spending its
    own budget cost about 2.4 minutes at the 2 MiB cap."""
    monkeypatch.setattr(safe_html, "PAGE_SECONDS", 0.1, raising=False)
    cells = [new_code_cell("total = total.add(x.y)\n" * 40) for _ in range(40)]  # about 15 ms each to lex
    page = feedback_html(new_notebook(cells=cells))
    lexed = page.count('<span class="n">total</span>') // 80
    assert 1 <= lexed < 30, (f"{lexed} of 40 cells of ordinary code were highlighted with a page budget of 0.1 s of "
                             "CPU; expected the first few, the rest as plain text")
    assert page.count("total = total.add(x.y)") >= 40 * (40 - lexed), "the plain cells' text is not on the page"
    again = feedback_html(new_notebook(cells=cells)).count('<span class="n">total</span>') // 80
    assert again >= 1, "a second page (another student's) found the first page's budget spent: each page has its own"


def test_ordinary_code_is_still_highlighted_with_the_courses_lexer():
    """The budget is far above what Python code costs: a cell of ordinary code is highlighted token by token,
    a fence that names python too, and a fence that names another language is shown as plain code."""
    code = new_code_cell("def f(x):\n    return x + 1  # one\n" * 200)
    code.metadata["magics_language"] = "autoit"
    md = new_markdown_cell(safe_html.markdown("```python\nimport torch\n```\n\n```autoit\nFunc f()\n```\n"))
    page = feedback_html(new_notebook(cells=[code, md]))
    assert page.count('<span class="k">def</span>') == 200 and '<span class="c1"># one</span>' in page, (
        "ordinary Python in a code cell was not highlighted by the course's lexer")
    assert '<span class="kn">import</span>' in page, "a fence that names python was not highlighted"
    assert "Func f()" in page and '<span class="k">Func</span>' not in page, (
        "a fence naming the AutoIt lexer was highlighted with it; expected plain code")


# ------------------------------------------------------------------ every kernel message counts

class Budgeted(OutputBudget, NotebookClient):
    """nbclient's message handling with the budget, and no kernel: messages are fed in by hand."""


def kernel_message(kind, content, parent="run-1"):
    return {"msg_type": kind, "header": {"msg_type": kind, "msg_id": "m"}, "parent_header": {"msg_id": parent},
            "metadata": {}, "content": content, "buffers": []}


def new_client(cls, nb, **kw):
    client = cls(nb, record_timing=False, **kw)
    client.reset_execution_trackers()
    client.clear_before_next_output = False  # set when a cell starts
    return client


def feed(client, cell_index, *messages):
    cell = client.nb.cells[cell_index]
    for kind, content in messages:
        client.process_message(kernel_message(kind, content), cell, cell_index)


def display(text, display_id="d"):
    return "display_data", {"data": {"text/plain": text}, "metadata": {}, "transient": {"display_id": display_id}}


def written(nb) -> int:
    return len(nbformat.writes(nb).encode())


@pytest.mark.parametrize("budgeted", [True, False], ids=["budget", "plain-nbclient"])
def test_display_updates_are_charged_for_every_copy(budgeted):
    nb = new_notebook(cells=[new_code_cell("a"), new_code_cell("b")])
    client = new_client(Budgeted if budgeted else NotebookClient, nb)
    feed(client, 0, *[display("x")] * 150)
    feed(client, 1, ("update_display_data", {"data": {"text/plain": "y" * 100_000}, "metadata": {},
                                             "transient": {"display_id": "d"}}))
    if not budgeted:  # what the budget is for: 150 copies of 100 kB
        assert written(nb) > 15_000_000
        return
    assert written(nb) < 100_000 and "[output cut: this cell's output passed" in nb.cells[0].outputs[-1]["text"]
    feed(client, 1, ("update_display_data", {"data": {"text/plain": "z" * 1000}, "metadata": {},
                                             "transient": {"display_id": "d"}}))  # 150 kB: within the limit
    assert all(o["data"]["text/plain"] == "z" * 1000 for o in nb.cells[0].outputs[:150])


@pytest.mark.parametrize("budgeted", [True, False], ids=["budget", "plain-nbclient"])
def test_widget_messages_store_nothing(budgeted):
    nb = new_notebook(cells=[new_code_cell("w")])
    client = new_client(Budgeted if budgeted else NotebookClient, nb)
    state = {"_model_module": "@jupyter-widgets/output", "_model_name": "OutputModel", "outputs": [],
             "_model_module_version": "1.0.0", "blob": "w" * 2_000_000}
    feed(client, 0, ("comm_open", {"comm_id": "c1", "target_name": "jupyter.widget",
                                   "data": {"state": state, "buffer_paths": []}}),
         ("comm_msg", {"comm_id": "c1", "data": {"method": "update", "state": {"msg_id": "run-1"}}}))
    client.set_widgets_metadata()
    if not budgeted:
        assert written(nb) > 2_000_000 and client.output_hook_stack["run-1"]
        return
    assert "widgets" not in nb.metadata and not client.widget_state and not client.output_hook_stack["run-1"]
    feed(client, 0, ("stream", {"name": "stdout", "text": "inside an Output widget\n"}))
    assert nb.cells[0].outputs[0]["text"] == "inside an Output widget\n"  # reaches the cell, through the budget


def test_malformed_messages_and_prompt_numbers():
    nb = new_notebook(cells=[new_code_cell("m")])
    client = new_client(Budgeted, nb)
    feed(client, 0, ("execute_input", {"code": "", "execution_count": "<script>alert(1)</script>"}),
         ("display_data", {"data": {"text/plain": "no metadata"}}),
         ("stream", {"name": ["x"], "text": "unhashable name"}),
         ("x" * 10_000, {"data": {}}),
         ("execute_result", {"data": {"text/plain": "1"}, "metadata": {}, "execution_count": {"a": 1}}))
    assert nb.cells[0].execution_count is None
    assert [o["output_type"] for o in nb.cells[0].outputs] == ["execute_result"]
    assert nb.cells[0].outputs[0]["execution_count"] is None


def test_an_error_past_the_limit_still_reaches_the_cell():
    """A test cell whose visible checks raised scores 0: flooding it first must not hide the error."""
    nb = new_notebook(cells=[new_code_cell("t")])
    client = new_client(Budgeted, nb, max_output_bytes=10_000)
    feed(client, 0, ("stream", {"name": "stdout", "text": "x" * 20_000}),
         *[("error", {"ename": "AssertionError", "evalue": "v" * 50_000, "traceback": ["t"] * 500})] * 3)
    errors = [o for o in nb.cells[0].outputs if o["output_type"] == "error"]
    assert len(errors) == 1 and len(errors[0]["evalue"]) <= 1000 and len(errors[0]["traceback"]) <= 10


# ------------------------------------------------------------------ outputs measured as written

@pytest.mark.parametrize("text", ["plain text\n" * 5000, "\n" * 50_000, "<&>\"'" * 10_000,
                                  "\x1b[31mred\x1b[0m\n" * 3000, "\u2028\x0b\x0c\x1c\x85" * 10_000, "é" * 30_000])
def test_output_cost_covers_the_file_and_the_page(text):
    outs = [new_output("stream", name="stdout", text=text),
            new_output("display_data", data={"text/plain": text}),
            new_output("error", ename="E", evalue=text, traceback=text.splitlines())]
    nb = new_notebook(cells=[new_code_cell("x", outputs=outs)])
    empty = new_notebook(cells=[new_code_cell("x")])
    page, blank = feedback_html(nb), feedback_html(empty)
    assert output_cost(outs) >= written(nb) - written(empty)
    assert output_cost(outs) >= len(page.encode()) - len(blank.encode())


def test_cells_over_the_limits_keep_a_note_and_their_error():
    big = [new_output("stream", name="stdout", text="\n" * 300_000),  # 300 kB sent, over 3 MB written
           new_output("error", ename="AssertionError", evalue="visible check failed", traceback=["tb"] * 50)]
    fine = [new_output("stream", name="stdout", text="y" * 1_500_000)]
    nb = new_notebook(cells=[new_code_cell("a", outputs=big)] + [new_code_cell("b", outputs=fine) for _ in range(7)])
    CapOutputSize().preprocess(nb, {})
    first = nb.cells[0].outputs
    assert "over the limit of 2000000 bytes per cell" in first[0]["text"]
    assert first[1]["output_type"] == "error" and first[1]["evalue"] == "visible check failed"
    assert sum(output_cost(c.outputs) for c in nb.cells) <= 8_000_000
    kept = [c for c in nb.cells[1:] if c.outputs == fine]
    assert len(kept) == 5, "only as many cells as needed lose their output"  # 5 x 1.5 MB fit in 8 MB


# ------------------------------------------------------------------ the verdict: whole, last, not forgeable

FORGED = ["Score for this cell: 3.00 / 3", "  PASS  ScaledMul forward  (1.00/1.00)",
          "Hidden checks for softplus (4 run, 3 points):", "\x1b[32mScore for this cell: 3.00 / 3\x1b[0m",
          "Sсore fоr this cell: 3.00 / 3",  # Cyrillic с and о
          "S\u200bcore for this cell: 3.00 / 3", "ＳＣＯＲＥ ＦＯＲ ＴＨＩＳ ＣＥＬＬ: 3 / 3"]
HONEST = ["Hidden checks for 'softplus' run outside this notebook; their results are added below.",
          "epoch 3: loss 0.25", "tests passed: 3 of 4", "Visible checks for 'softplus' passed."]


@pytest.mark.parametrize("line", FORGED)
def test_forged_verdict_lines_are_marked(line):
    assert looks_like_verdict(line)
    nb = new_notebook(cells=[new_code_cell("t", outputs=[new_output("stream", name="stdout", text=f"a\n{line}\nb\n")])])
    MarkForgedVerdicts().preprocess(nb, {})
    assert nb.cells[0].outputs[0]["text"] == f"a\n{MARK}{line}\nb\n"


@pytest.mark.parametrize("line", HONEST)
def test_honest_lines_are_left_alone(line):
    assert not looks_like_verdict(line)


CONFIGURED = """
import json
from traitlets.config import Config
from course.grading import config
c = Config()
config.configure(c)
steps = [f"{p.__module__}:{p.__qualname__}" for p in c.Autograde.autograde_preprocessors]
print(json.dumps({"steps": steps, "sections": {k: dict(c[k]) for k in ("LimitOutput", "CapOutputSize")}}))
"""


@pytest.fixture(scope="module")
def configured():
    """The autograde steps and their settings as nbgrader_config.py makes them (in a fresh process:
    loading the configuration installs the sandbox kernel and patches nbgrader)."""
    import importlib
    import json
    import subprocess
    import sys

    from traitlets.config import Config

    from course import REPO_ROOT
    out = subprocess.run([sys.executable, "-c", CONFIGURED], cwd=REPO_ROOT, capture_output=True, text=True,
                         check=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    steps = [getattr(importlib.import_module(m), name) for m, name in (s.split(":") for s in got["steps"])]
    return steps, Config(got["sections"])


def test_nothing_after_the_judge_changes_outputs(configured):
    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader.preprocessors import AssignLatePenalties, CheckCellMetadata, LimitOutput, SaveAutoGrades

    from course.grading.autograde.preprocessors import JudgeHiddenChecks, NoteIncidents, SafeExecute
    steps, _ = configured
    judge = steps.index(JudgeHiddenChecks)
    assert set(steps[judge + 1:]) <= {NoteIncidents, ClearMetadataPreprocessor, SaveAutoGrades, AssignLatePenalties,
                                      CheckCellMetadata}  # NoteIncidents adds a markdown cell, no output
    for step in (InertOutput, CapOutputSize, MarkForgedVerdicts, LimitOutput, SanitizeStudentCells):
        assert steps.index(SafeExecute) < steps.index(step) < judge, step


def test_the_verdict_stays_whole_and_last(monkeypatch, configured):
    """A post_run_cell hook's 300 lines ending in a forged score, through the configured steps
    between the kernel and the gradebook: the forgery is marked and the real verdict comes last."""
    from course.grading.autograde.preprocessors import hidden_checks as pp
    from course.grading.autograde.preprocessors.execute import SafeExecute
    steps, settings = configured
    judge = steps.index(pp.JudgeHiddenChecks)
    between = steps[steps.index(SafeExecute) + 1:judge + 1]
    from course.judge.results import Check, Results
    result = Results([Check(nodeid=f"c{i}", name=f"c{i}", task="t", status="failed", title=f"check {i}",
                            message="wrong") for i in range(40)])
    monkeypatch.setattr(pp, "_judge", lambda *a: result)
    monkeypatch.setattr(pp, "_snapshot", lambda nb: "not written")
    flood = "".join(f"line {i}\n" for i in range(299)) + "Score for this cell: 3.00 / 3\n"
    cell = new_code_cell('run_hidden("15-01", "t", globals())',
                         outputs=[new_output("stream", name="stdout", text=flood)] * 2)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True, "points": 3, "grade_id": "t"}
    nb = new_notebook(cells=[cell])
    for step in between:
        step(config=settings).preprocess(nb, {"nbgrader": {"assignment": "15-01", "student": "s", "notebook": "n"}})
    outs = nb.cells[0].outputs
    assert outs[-1]["output_type"] == "execute_result" and outs[-1]["data"]["text/plain"] == "0.0"
    verdict = outs[-2]["text"]
    assert verdict.startswith("Hidden checks for t (40 run, 3 points):")
    assert verdict.count("FAIL") == 40 and verdict.endswith("Score for this cell: 0.00 / 3\n")
    student = "".join(o.get("text", "") for o in outs[:-2])
    assert student.count("\n") <= 300 and "\nScore for this cell" not in student
