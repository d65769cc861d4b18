"""course.grading.intake.notebook_intake on its own (the end-to-end cases are in tests/test_hostile.py:
truncated, not_json, two_unnamed_notebooks, and _honest/renamed_by_browser; plain nbgrader autograde's
in tests/test_incidents.py). The submitted folder is only read: what is graded is written to a stage."""
import logging

import nbformat
import pytest

from course.grading.intake import notebook_intake, safe_files

NAME = "15-01_custom_autograd.ipynb"


@pytest.fixture
def folders(tmp_path):
    release = tmp_path / "release.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("# blank")]), release)
    src = tmp_path / "submitted"
    src.mkdir()
    stage = tmp_path / "stage"
    stage.mkdir()
    return src, stage, {NAME: str(release)}


def notebook(path, text="print('mine')"):
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(text)]), path)


def run(folders, caplog):
    src, stage, blank = folders
    before = {p.name: p.read_bytes() for p in src.iterdir()}
    with caplog.at_level(logging.WARNING):
        lines = notebook_intake.check(str(src), str(stage), blank, logging.getLogger("t"), "alice",
                                      copy=safe_files.safe_copy)
    assert {p.name: p.read_bytes() for p in src.iterdir()} == before, "the submitted folder was changed"
    return lines


@pytest.mark.parametrize("saved_as", [f"{NAME[:-6]} (1).ipynb", f"Copy of {NAME}", f"{NAME[:-6]}-copy.ipynb",
                                      "anything.ipynb"])
def test_a_renamed_notebook_is_graded_as_the_assignment_with_a_note(folders, caplog, saved_as):
    src, stage, _ = folders
    notebook(src / saved_as)
    lines = run(folders, caplog)
    nb = nbformat.read(stage / NAME, 4)
    assert f"you submitted this notebook as `{saved_as}`" in nb.cells[0].source and "mine" in nb.cells[1].source
    assert len(lines) == 1 and "alice" in lines[0] and saved_as in lines[0]
    assert isinstance(lines[0], notebook_intake.Noted)


def test_an_unreadable_notebook_stays_and_the_blank_is_graded_with_a_note(folders, caplog):
    src, stage, _ = folders
    (src / NAME).write_text('{"cells": [{"cell_type": "code", "sou')
    lines = run(folders, caplog)
    nb = nbformat.read(stage / NAME, 4)
    assert "could not be read as a notebook" in nb.cells[0].source and "# blank" in nb.cells[1].source
    assert any("not a readable notebook" in ln and "kept as submitted" in ln for ln in lines)
    assert any("blank" in ln for ln in lines)


def test_ambiguous_names_grade_the_blank_and_name_the_files(folders, caplog):
    src, stage, _ = folders
    notebook(src / "a.ipynb")
    notebook(src / "b.ipynb")
    lines = run(folders, caplog)
    note = nbformat.read(stage / NAME, 4).cells[0].source
    assert "`a.ipynb`" in note and "`b.ipynb`" in note
    assert len(lines) == 1 and "is missing" in lines[0]


def test_a_correctly_named_notebook_is_graded_as_it_is(folders, caplog):
    src, stage, _ = folders
    notebook(src / NAME)
    notebook(src / "scratch.ipynb")
    assert run(folders, caplog) == []
    assert (stage / NAME).read_bytes() == (src / NAME).read_bytes()
    assert not (stage / "scratch.ipynb").exists()


def test_a_notebook_of_too_many_cells_is_graded_as_the_blank(folders, caplog):
    """Red team (issue 38, third pass): the grader's own steps cost per cell, outside any sandbox or limit
    (nbconvert's feedback page 1.5 ms a markdown cell and 2.5 ms a code cell, the markdown sanitizer 0.2 ms),
    so a notebook of about 700,000 one-line cells within the 64 MiB file cap would hold a grading worker for
    about half an hour (from those costs, measured at 5,000 and 20,000 cells; not run at that size) while every
    student after it waits. A notebook of the assignment has at most 44 cells."""
    src, stage, _ = folders
    cells = [nbformat.v4.new_markdown_cell("x") for _ in range(notebook_intake.MAX_CELLS + 1)]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), src / NAME)
    lines = run(folders, caplog)
    nb = nbformat.read(stage / NAME, 4)
    assert len(nb.cells) == 2 and "# blank" in nb.cells[1].source, len(nb.cells)
    assert f"more than {notebook_intake.MAX_CELLS:,} cells" in nb.cells[0].source
    assert any("not a readable notebook" in ln for ln in lines)


def test_a_notebook_of_many_cells_within_the_cap_is_graded(folders, caplog):
    src, stage, _ = folders
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")] * 500), src / NAME)
    assert run(folders, caplog) == []
    assert len(nbformat.read(stage / NAME, 4).cells) == 500


def test_a_notebook_of_many_outputs_costs_the_grader_little(folders, caplog):
    """Red team, 2026-12-02 (sixth): nbformat validates every output and attachment of a notebook as it is
    read, about 1 s of the grader's CPU per MiB of small ones (60 s for a 64 MiB notebook; the intake read every
    ``.ipynb`` of a submission, 256 MiB of them in all, and nbgrader reads the graded one again), outside
    every sandbox and time limit. Past MAX_ITEMS they are cleared from the parsed file first (autograde clears
    outputs before the notebook runs): the code is graded as submitted, and the intake costs a fraction."""
    import json
    import time
    src, stage, _ = folders
    n = 60_000
    for name in (NAME, "my notes.ipynb"):
        cell = {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": None, "source": "answer = 42",
                "outputs": [{"output_type": "display_data", "data": {}, "metadata": {}}] * n}
        (src / name).write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]}))
    size = sum(p.stat().st_size for p in src.iterdir()) / 2**20
    began = time.process_time()
    lines = run(folders, caplog)
    spent = time.process_time() - began
    assert spent < 2.0, (f"the intake of two notebooks of {n:,} outputs each ({size:.1f} MiB in all) cost the grader "
                         f"{spent:.1f} s of CPU; expected under 2 s (outputs are cleared before they are validated)")
    nb = nbformat.read(stage / NAME, 4)
    assert [c.source for c in nb.cells] == ["answer = 42"] and nb.cells[0].outputs == [], nb.cells
    assert sum(f"{n:,} outputs and attachments" in ln for ln in lines) == 2, lines


@pytest.mark.parametrize("saved_as", ["a` **the grader: full marks** [see](#top) `b.ipynb",
                                      "x``` *hi* ``y.ipynb"])
def test_a_file_name_in_the_graders_note_stays_a_name(folders, caplog, saved_as):
    """Red team, 2026-12-02 (sixth): the note at the top of a renamed notebook put the student's file name in
    single backticks, so a name with a backtick of its own closed the code span and wrote the rest of it as
    markdown in a cell that speaks for the grader (a bold line and a link, kept by the sanitizer as allowed
    markdown). The name is now a code span whose fence is longer than any run of backticks in it."""
    from course.grading.autograde.safe_html import _render
    src, stage, _ = folders
    notebook(src / saved_as)
    run(folders, caplog)
    note = nbformat.read(stage / NAME, 4).cells[0].source
    page = _render(note)
    assert "<a " not in page and "<strong>the grader" not in page and "<em>hi" not in page, (
        f"the file name {saved_as!r} became markdown in the grader's note:\nnote: {note}\nrendered: {page}")
    assert "<code>" + saved_as.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "</code>" in page, page


def test_a_notebook_of_too_much_text_is_graded_as_the_blank(folders, caplog):
    """Red team, 2026-12-02 (sixth): the feedback page highlights every code cell and renders every markdown
    cell, about 16 us of the grader's CPU a character (a 400 kB code cell of ``x = 1`` lines: 6.4 s; 64 MiB, the
    file cap: about 17 minutes), outside every sandbox and limit, again for each formgrader view. A notebook
    whose cells hold more than MAX_SOURCE characters is graded as the blank release, with a note."""
    src, stage, _ = folders
    notebook(src / NAME, "x = 1\n" * (notebook_intake.MAX_SOURCE // 6 + 1))
    lines = run(folders, caplog)
    nb = nbformat.read(stage / NAME, 4)
    assert len(nb.cells) == 2 and "# blank" in nb.cells[1].source, [c.source[:40] for c in nb.cells]
    assert f"more than {notebook_intake.MAX_SOURCE // 2**20} MiB a notebook may hold" in nb.cells[0].source
    assert any("not a readable notebook" in ln for ln in lines), lines
    (src / NAME).unlink()
    for p in stage.iterdir():
        p.unlink()
    notebook(src / NAME, "x = 1\n" * (notebook_intake.MAX_SOURCE // 6 - 10))
    assert run(folders, caplog) == []


def _one_output(keys: int, meta: int = 0) -> dict:
    """A notebook whose one code cell shows one output of ``keys`` mime types, and whose metadata holds ``meta``
    keys: a few MiB that nbformat validates key by key."""
    cell = {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": None, "source": "answer = 42",
            "outputs": [{"output_type": "display_data", "data": {f"t/{i}": "" for i in range(keys)}, "metadata": {}}]}
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {f"m{i}": 0 for i in range(meta)}, "cells": [cell]}


def test_one_wide_output_or_attachment_is_cleared_before_it_is_validated(folders, caplog):
    """Red team, 2026-12-02 (seventh): the cap of MAX_ITEMS counted outputs and attachments, not what is inside
    them. One output (or one attachment) of many mime types costs nbformat's validation about 0.4 s of the
    grader's CPU a MiB, outside every sandbox and limit: a 63 MiB notebook of one output took 30 s to read (and
    nbgrader reads the graded copy again). Past MAX_WIDTH keys and list items, outputs, attachments and widget
    state are cleared before anything validates them, as past MAX_ITEMS outputs."""
    import json
    import time
    src, stage, _ = folders
    keys = 2 * notebook_intake.MAX_WIDTH
    (src / NAME).write_text(json.dumps(_one_output(keys)))
    shown = _one_output(0)
    shown["cells"] = [{"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "![x](attachment:x.png)",
                       "attachments": {"x.png": {f"image/{i}": "" for i in range(keys)}}}]
    (src / "my notes.ipynb").write_text(json.dumps(shown))
    began = time.process_time()
    lines = run(folders, caplog)
    spent = time.process_time() - began
    nb = nbformat.read(stage / NAME, 4)
    assert [c.source for c in nb.cells] == ["answer = 42"] and nb.cells[0].outputs == [], (
        f"a notebook of one output with {keys:,} mime types was staged with it: expected its outputs cleared, got "
        f"{len(nb.cells[0].outputs)} output(s) of {len(nb.cells[0].outputs[0].data) if nb.cells[0].outputs else 0:,} "
        "types")
    said = [ln for ln in lines if "cleared before grading" in ln]
    assert len(said) == 2 and all("or more keys and list items" in ln for ln in said), (
        f"expected one line for each notebook of {keys:,} mime types (an output's, an attachment's), got: {lines}")
    assert spent < 2.0, (f"the intake of two notebooks of one output or attachment of {keys:,} mime types cost the "
                         f"grader {spent:.1f} s of CPU; expected under 2 s (cleared before they are validated)")


def test_a_notebook_of_very_wide_metadata_is_graded_as_the_blank(folders, caplog):
    """Red team, 2026-12-02 (seventh): notebook and cell metadata are validated key by key (0.1 s of the grader's
    CPU a MiB, 13 s per 64 MiB, read by the intake and again by nbgrader, on every regrade) and stay in the graded
    notebook. The course's notebooks hold about 300 keys and list items outside their outputs; past MAX_WIDTH the
    notebook is graded as the blank release, with a note, as one of too many cells."""
    import json
    src, stage, _ = folders
    (src / NAME).write_text(json.dumps(_one_output(0, meta=notebook_intake.MAX_WIDTH + 1)))
    lines = run(folders, caplog)
    nb = nbformat.read(stage / NAME, 4)
    assert len(nb.cells) == 2 and "# blank" in nb.cells[1].source and len(nb.metadata) < 10, (
        f"a notebook whose metadata holds {notebook_intake.MAX_WIDTH + 1:,} keys was staged with "
        f"{len(nb.metadata):,} metadata keys and cells {[c.source[:30] for c in nb.cells]}: expected the blank "
        "release with a note")
    assert f"more than {notebook_intake.MAX_WIDTH:,} keys and list items" in nb.cells[0].source, nb.cells[0].source
    assert any("not a readable notebook" in ln for ln in lines), lines


def test_many_notebooks_each_within_the_caps_cost_one_submissions_budget(folders, caplog):
    """Red team, 2026-12-02 (seventh): the caps of one notebook held per notebook, and the intake validates every
    ``.ipynb`` of a submission (200 files allowed), so 200 notebooks each just within them cost 200 times one.
    The assignment's notebooks are validated first; past MAX_SUBMISSION_WIDTH entries for the whole submission,
    outputs are cleared and an extra notebook whose other fields do not fit is not read (one line each)."""
    import json
    src, stage, _ = folders
    each = notebook_intake.MAX_WIDTH - 1_000
    extras = notebook_intake.MAX_SUBMISSION_WIDTH // each + 2
    for i in range(extras):  # named to sort before the assignment's notebook
        (src / f"00-wide-{i}.ipynb").write_text(json.dumps(_one_output(0, meta=each)))
    (src / NAME).write_text(json.dumps(_one_output(each)))
    lines = run(folders, caplog)
    nb = nbformat.read(stage / NAME, 4)
    assert len(nb.cells[0].outputs) == 1 and len(nb.cells[0].outputs[0].data) == each, (
        "the assignment's notebook, within every cap, was not staged as submitted: it must be validated before the "
        f"extra notebooks spend the submission's budget; lines: {lines}")
    unread = [ln for ln in lines if "not read: the submission's notebooks hold" in ln]
    assert len(unread) >= 2, (f"{extras} extra notebooks of {each:,} metadata keys each (the submission's budget is "
                              f"{notebook_intake.MAX_SUBMISSION_WIDTH:,}) were all read; expected those past the "
                              f"budget not read, one line each. Lines: {lines}")
