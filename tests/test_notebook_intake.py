"""course.grading.notebook_intake on its own (the end-to-end cases are in tests/test_hostile.py:
truncated, not_json, two_unnamed_notebooks, and _honest/renamed_by_browser)."""
import logging

import nbformat
import pytest

from course.grading import notebook_intake

NAME = "15-01_custom_autograd.ipynb"


@pytest.fixture
def folders(tmp_path):
    release = tmp_path / "release.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("# blank")]), release)
    src = tmp_path / "submitted"
    src.mkdir()
    return src, {NAME: str(release)}, str(tmp_path / "rejected")


def notebook(path, text="print('mine')"):
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(text)]), path)


def run(folders, caplog):
    src, blank, rejected = folders
    with caplog.at_level(logging.WARNING):
        return notebook_intake.check(str(src), blank, rejected, logging.getLogger("t"), "alice")


@pytest.mark.parametrize("saved_as", [f"{NAME[:-6]} (1).ipynb", f"Copy of {NAME}", f"{NAME[:-6]}-copy.ipynb",
                                      "anything.ipynb"])
def test_a_renamed_notebook_is_graded_as_the_assignment(folders, caplog, saved_as):
    src, _, _ = folders
    notebook(src / saved_as)
    lines = run(folders, caplog)
    assert (src / NAME).exists() and not (src / saved_as).exists()
    assert "mine" in (src / NAME).read_text()
    assert len(lines) == 1 and "alice" in lines[0] and saved_as in lines[0]


def test_an_unreadable_notebook_is_set_aside_and_the_blank_graded_with_a_note(folders, caplog):
    src, _, rejected = folders
    (src / NAME).write_text('{"cells": [{"cell_type": "code", "sou')
    lines = run(folders, caplog)
    nb = nbformat.read(src / NAME, 4)
    assert "could not be read as a notebook" in nb.cells[0].source and "# blank" in nb.cells[1].source
    assert any("not a readable notebook" in ln for ln in lines) and any("blank" in ln for ln in lines)
    assert len(list(__import__("pathlib").Path(rejected).iterdir())) == 1


def test_ambiguous_names_grade_the_blank_and_name_the_files(folders, caplog):
    src, _, _ = folders
    notebook(src / "a.ipynb")
    notebook(src / "b.ipynb")
    lines = run(folders, caplog)
    note = nbformat.read(src / NAME, 4).cells[0].source
    assert "`a.ipynb`" in note and "`b.ipynb`" in note
    assert (src / "a.ipynb").exists() and (src / "b.ipynb").exists()
    assert len(lines) == 1 and "is missing" in lines[0]


def test_a_correctly_named_notebook_is_left_alone(folders, caplog):
    src, _, _ = folders
    notebook(src / NAME)
    notebook(src / "scratch.ipynb")
    before = (src / NAME).read_bytes()
    assert run(folders, caplog) == []
    assert (src / NAME).read_bytes() == before and (src / "scratch.ipynb").exists()
