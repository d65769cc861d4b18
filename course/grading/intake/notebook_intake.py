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
  own steps (the feedback page, the markdown sanitizer) cost per cell outside any sandbox or time limit;
- a notebook whose cells hold more than ``MAX_SOURCE`` characters of text is graded as the blank release, with
  a note: its feedback page (code highlighted, markdown rendered) costs about 16 us a character;
- a notebook of more than ``MAX_ITEMS`` outputs and attachments is graded with them cleared (one line):
  nbformat's validation of them costs the grader about a second a MiB, and autograde clears outputs anyway.

Each case is one log line naming the student (``Noted``: the notebook tells the student too).
"""
from __future__ import annotations

import os
import re

import nbformat

from ... import notebook as nbtools
from ...plain import one_line

NOTE = "**Note from the grader:** {what} The blank notebook was graded in its place, so this assignment scores 0."
RENAMED = ("**Note from the grader:** you submitted this notebook as {name}; it was graded as {expected}, "
           "the assignment's notebook. Keep the name it was released with next time.")


MAX_CELLS = 2_000  # a notebook of the assignment has at most 44; 700,000 cells fit in the 64 MiB file cap


def _code(text: str) -> str:
    """``text`` as a markdown code span, whatever backticks it holds (a file name is the student's: with a
    backtick of its own it would close the span and write the rest of the note as markdown)."""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}" if "`" in text else f"`{text}`"


class Noted(str):
    """A log line whose case the graded notebook also explains to the student."""


def _stem(name: str) -> str:
    """A notebook name without what browsers and LMSs add: copies, counters, dates, ids."""
    s = name.lower().removesuffix(".ipynb")
    s = re.sub(r"^(copy of |copy_of_)", "", s)
    s = re.sub(r"[\s_-]*(\(\d+\)|-copy\d*|_copy\d*| copy\d*|-\d{1,2})$", "", s)
    return re.sub(r"[^a-z0-9]+", "", s)


MAX_SOURCE = 2 * 2**20  # characters of all cells' text: highlighting code and rendering markdown for the
# feedback page cost the grader about 16 us a character (a 400 kB code cell: 6.4 s), outside every limit
MAX_ITEMS = 10_000  # outputs and attachments of a notebook validated as submitted; more are cleared first


def _load(path: str) -> tuple[nbformat.NotebookNode | None, str | None, int]:
    """The notebook at ``path`` (None and the reason in a few words when it is not one), and how many
    outputs and attachments were cleared from it before it was validated.

    nbformat's validation costs about 1 s of the grader's CPU per MiB of small outputs or attachments
    (60 s for a 64 MiB notebook, read by the intake and again by nbgrader), outside every sandbox and time limit;
    autograde clears outputs before the notebook runs and the feedback drops attachments, so past
    ``MAX_ITEMS`` they are cleared from the parsed file (1/30 of that cost) before anything validates it."""
    import json
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"cannot be read ({exc.__class__.__name__})", 0
    except (ValueError, RecursionError) as exc:
        return None, f"not a valid notebook ({(str(exc).splitlines() or [type(exc).__name__])[0][:160]})", 0
    cells = raw.get("cells") if isinstance(raw, dict) else None
    if isinstance(cells, list) and len(cells) > MAX_CELLS:
        return None, f"{len(cells):,} cells, more than {MAX_CELLS:,} cells a notebook may have", 0
    if isinstance(cells, list):
        text = sum(len(c.get("source")) if isinstance(c.get("source"), str) else
                   sum(len(x) for x in c.get("source") if isinstance(x, str)) if isinstance(c.get("source"), list) else 0
                   for c in cells if isinstance(c, dict))
        if text > MAX_SOURCE:
            return None, (f"{text / 2**20:.1f} MiB of cell text, more than {MAX_SOURCE // 2**20} MiB a notebook may "
                          "hold"), 0
    cleared = 0
    if isinstance(cells, list):
        items = sum(len(c.get(k)) for c in cells if isinstance(c, dict) for k in ("outputs", "attachments")
                    if isinstance(c.get(k), (list, dict)))
        if items > MAX_ITEMS:
            for c in cells:
                if isinstance(c, dict) and isinstance(c.get("outputs"), list):
                    c["outputs"] = []
                if isinstance(c, dict) and isinstance(c.get("attachments"), dict):
                    del c["attachments"]
            cleared = items
    try:
        nb = nbformat.reads(json.dumps(raw), as_version=4) if cleared else nbtools.read(path)
    except nbtools.NotebookError as exc:
        return None, str(exc).split(": ", 1)[-1], 0
    except Exception as exc:  # json errors, schema errors
        return None, f"not a valid notebook ({(str(exc).splitlines() or [type(exc).__name__])[0][:160]})", 0
    if not isinstance(nb.get("cells"), list):
        return None, "not a valid notebook (no cell list)", 0
    return nb, None, cleared


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
    cleared: dict[str, nbformat.NotebookNode] = {}  # read with their outputs cleared: written from here
    for name in list(names):
        nb, why, n = _load(os.path.join(src, name))
        if n:
            cleared[name] = nb
            say(f"{student}: {one_line(name, 120)} held {n:,} outputs and attachments, more than {MAX_ITEMS:,}: "
                "cleared before grading (autograde clears outputs before it runs)", noted=False)
        if why is None:
            continue
        names.remove(name)
        say(f"{student}: {one_line(name, 120)} is not a readable notebook, {one_line(why, 160)}; kept as "
            f"submitted", noted=name in blank)
        if name in blank:
            _blank_with_note(blank[name], os.path.join(stage, name),
                             NOTE.format(what=f"the file you submitted, {_code(name)}, could not be read as a notebook "
                                              f"({_code(why)}). Your instructor has kept it."))
            say(f"{student}: {one_line(name, 120)} graded as a blank submission")
    unknown = [n for n in names if n not in blank]
    for expected in sorted(blank):
        if os.path.lexists(os.path.join(stage, expected)):
            continue
        if expected in names:
            if expected in cleared:
                _write_new(os.path.join(stage, expected), cleared[expected])
            else:
                _copy_plain(os.path.join(src, expected), os.path.join(stage, expected), copy)
            continue
        alike = [n for n in unknown if _stem(n) == _stem(expected)]
        missing = [e for e in blank if e not in names]
        only = alike if len(alike) == 1 else (unknown if len(unknown) == 1 and len(missing) == 1 else [])
        if only:
            match = only[0]
            unknown.remove(match)
            nb = cleared.get(match) or nbtools.read(os.path.join(src, match))
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(RENAMED.format(name=_code(match), expected=_code(expected))))
            _write_new(os.path.join(stage, expected), nb)
            say(f"{student}: {one_line(match, 120)} is graded as {expected} (the only notebook it can be)")
            continue
        found = ", ".join(_code(n) for n in unknown) or "no other notebook"
        _blank_with_note(blank[expected], os.path.join(stage, expected),
                         NOTE.format(what=f"no notebook named {_code(expected)} was submitted (found: {found})."))
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
