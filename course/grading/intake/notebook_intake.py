"""Before autograde reads a submission: every notebook of the assignment is present and readable.

Runs inside ``nbgrader autograde`` (installed by ``safe_files.install``), after the file intake. The
submitted folder is only read: the notebooks graded are copies in a folder of their own
(``gradebook/intake/<student>/<assignment>/``), so whatever was submitted stays where it was, and a
regrade meets (and reports) the same case again:

- a notebook that is not valid JSON (truncated, an HTML error page, binary) is graded as the blank
  release, with a note at its top;
- a notebook saved under another name by a browser or an LMS (``15-01_x (1).ipynb``,
  ``Copy of 15-01_x.ipynb``) is graded as the assignment's notebook when the match is unambiguous,
  with a note at its top;
- a notebook that is missing is replaced by the blank release, with a note;
- a notebook of more than ``MAX_CELLS`` cells is graded as the blank release, with a note: the grader's
  own steps (the feedback page, the markdown sanitizer) cost per cell outside any sandbox or time limit.

Each case is one log line naming the student (``Noted``: the notebook tells the student too).
"""
from __future__ import annotations

import os
import re

import nbformat

from ... import notebook as nbtools
from ...plain import one_line

NOTE = "**Note from the grader:** {what} The blank notebook was graded in its place, so this assignment scores 0."
RENAMED = ("**Note from the grader:** you submitted this notebook as `{name}`; it was graded as `{expected}`, "
           "the assignment's notebook. Keep the name it was released with next time.")


MAX_CELLS = 2_000  # a notebook of the assignment has at most 44; 700,000 cells fit in the 64 MiB file cap


class Noted(str):
    """A log line whose case the graded notebook also explains to the student."""


def _stem(name: str) -> str:
    """A notebook name without what browsers and LMSs add: copies, counters, dates, ids."""
    s = name.lower().removesuffix(".ipynb")
    s = re.sub(r"^(copy of |copy_of_)", "", s)
    s = re.sub(r"[\s_-]*(\(\d+\)|-copy\d*|_copy\d*| copy\d*|-\d{1,2})$", "", s)
    return re.sub(r"[^a-z0-9]+", "", s)


def _readable(path: str) -> str | None:
    """None when ``path`` is a notebook, else the reason in a few words."""
    try:
        nb = nbtools.read(path)
    except nbtools.NotebookError as exc:
        return str(exc).split(": ", 1)[-1]
    if len(nb.cells) > MAX_CELLS:
        return f"{len(nb.cells):,} cells, more than {MAX_CELLS:,} cells a notebook may have"
    return None


def _blank_with_note(release: str, dest: str, note: str) -> None:
    nb = nbtools.read(release)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(note))
    _write_new(dest, nb)


def _write_new(dest: str, nb) -> None:
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        nbformat.write(nb, fh)


def check(src: str, stage: str, blank: dict[str, str], log, who: str, copy=None) -> list[str]:
    """Write into ``stage`` every notebook of ``blank`` (name -> release path) as it will be graded,
    from what ``src`` holds (never changed); one line per case met."""
    lines: list[str] = []

    def say(line: str, noted: bool = True) -> None:
        lines.append(Noted(line) if noted else line)
        log.warning("%s", line)

    student = one_line(who, 80)
    names = sorted(n for n in os.listdir(src) if n.endswith(".ipynb") and os.path.isfile(os.path.join(src, n))
                   and not os.path.islink(os.path.join(src, n)))
    for name in list(names):
        why = _readable(os.path.join(src, name))
        if why is None:
            continue
        names.remove(name)
        say(f"{student}: {one_line(name, 120)} is not a readable notebook, {one_line(why, 160)}; kept as "
            f"submitted", noted=name in blank)
        if name in blank:
            _blank_with_note(blank[name], os.path.join(stage, name),
                             NOTE.format(what=f"the file you submitted, `{name}`, could not be read as a notebook "
                                              f"({why}). Your instructor has kept it."))
            say(f"{student}: {one_line(name, 120)} graded as a blank submission")
    unknown = [n for n in names if n not in blank]
    for expected in sorted(blank):
        if os.path.lexists(os.path.join(stage, expected)):
            continue
        if expected in names:
            _copy_plain(os.path.join(src, expected), os.path.join(stage, expected), copy)
            continue
        alike = [n for n in unknown if _stem(n) == _stem(expected)]
        missing = [e for e in blank if e not in names]
        only = alike if len(alike) == 1 else (unknown if len(unknown) == 1 and len(missing) == 1 else [])
        if only:
            match = only[0]
            unknown.remove(match)
            nb = nbtools.read(os.path.join(src, match))
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(RENAMED.format(name=match, expected=expected)))
            _write_new(os.path.join(stage, expected), nb)
            say(f"{student}: {one_line(match, 120)} is graded as {expected} (the only notebook it can be)")
            continue
        found = ", ".join(f"`{n}`" for n in unknown) or "no other notebook"
        _blank_with_note(blank[expected], os.path.join(stage, expected),
                         NOTE.format(what=f"no notebook named `{expected}` was submitted (found: {found})."))
        say(f"{student}: {expected} is missing (found: {one_line(found, 200)}); graded as a blank submission")
    return lines


def _copy_plain(src: str, dest: str, copy) -> None:
    """The submitted notebook's bytes, unchanged (the file intake made it a plain file within the caps),
    copied by ``copy`` (safe_files.safe_copy: no link followed)."""
    if copy is None or not copy(src, dest):
        raise OSError(f"{src} could not be copied for grading")


def set_aside(path: str, rejected_dir: str, n: int) -> None:
    """Move ``path`` into ``rejected_dir`` as ``<n>-<safe name>`` (a rename: nothing is read or followed)."""
    os.makedirs(rejected_dir, exist_ok=True)
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in os.path.basename(path))[:100]
    os.rename(path, os.path.join(rejected_dir, f"{n:03d}-{safe}"))
