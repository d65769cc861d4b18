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
- a notebook of more than ``MAX_ITEMS`` outputs and attachments, or whose outputs, attachments and widget state
  hold more than ``MAX_WIDTH`` entries (keys and list items), is graded with them cleared (one line): nbformat's
  validation of them costs the grader up to 0.4 s a MiB, and autograde clears outputs anyway;
- a notebook whose metadata, cell fields and source lists hold more than ``MAX_WIDTH`` entries is graded as the
  blank release, with a note (the course's notebooks hold about 300);
- a submission's notebooks are validated within ``MAX_SUBMISSION_WIDTH`` entries in all, the assignment's own
  first: past it, outputs are cleared, and an extra notebook is not read (one line), so 200 files each within
  the caps above cost no more than one.

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
MAX_WIDTH = 50_000  # entries (dict keys, list items) of one notebook validated as submitted; about 300 here
MAX_SUBMISSION_WIDTH = 200_000  # entries validated for all the notebooks of one submission together


def _entries(objs, limit: int) -> int:
    """The keys and list items of ``objs`` and of everything nested in them, counted without recursion; the
    count stops as soon as it passes ``limit`` (so a wide file costs ``limit`` steps, never its width)."""
    stack, n = list(objs), 0
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            n += len(o)
            if n > limit:
                return n
            stack.extend(v for v in o.values() if isinstance(v, (dict, list)))
        elif isinstance(o, list):
            n += len(o)
            if n > limit:
                return n
            stack.extend(v for v in o if isinstance(v, (dict, list)))
    return n


def _clearable(raw: dict, cells: list) -> list:
    """What autograde and the feedback drop anyway: outputs, attachments, the notebook's widget state."""
    meta = raw.get("metadata")
    return ([c.get(k) for c in cells if isinstance(c, dict) for k in ("outputs", "attachments")]
            + [meta.get("widgets") if isinstance(meta, dict) else None])


def _kept(raw: dict, cells: list) -> list:
    """Everything else nbformat validates but the cells' source (counted with their text, ``MAX_SOURCE``):
    metadata (less widget state), each cell's other fields."""
    meta = raw.get("metadata")
    return ([{k: v for k, v in meta.items() if k != "widgets"} if isinstance(meta, dict) else meta]
            + [{k: v for k, v in c.items() if k not in ("outputs", "attachments")
                and not (k == "source" and isinstance(v, (str, list)))} for c in cells
               if isinstance(c, dict)] + [v for k, v in raw.items() if k not in ("cells", "metadata")])


def _load(path: str, budget: int = MAX_SUBMISSION_WIDTH, own: bool = True) -> tuple[nbformat.NotebookNode | None, str | None, tuple[int, int] | None, int]:
    """The notebook at ``path`` (None and the reason in a few words when it is not one), how many outputs and
    attachments and how many entries in them were cleared from it before it was validated (None: nothing
    cleared), and how many entries were validated.

    nbformat's validation costs about 1 s of the grader's CPU per MiB of small outputs or attachments and up to
    0.4 s per MiB of wide dictionaries (one output of 300,000 mime keys; notebook or cell metadata of as many
    keys: 0.1 s), outside every sandbox and time limit; autograde clears outputs before the notebook runs and the
    feedback drops attachments and widget state, so past ``MAX_ITEMS`` of them, or past ``MAX_WIDTH`` (or what is
    left of ``budget``) entries in them, they are cleared from the parsed file before anything validates it; a
    notebook whose other fields are that wide is not read at all, nor one that is not the assignment's (not
    ``own``) whose lines of source do not fit in what is left of ``budget``."""
    import json
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"cannot be read ({exc.__class__.__name__})", None, 0
    except (ValueError, RecursionError) as exc:
        return None, f"not a valid notebook ({(str(exc).splitlines() or [type(exc).__name__])[0][:160]})", None, 0
    cells = raw.get("cells") if isinstance(raw, dict) else None
    if isinstance(cells, list) and len(cells) > MAX_CELLS:
        return None, f"{len(cells):,} cells, more than {MAX_CELLS:,} cells a notebook may have", None, 0
    if not isinstance(raw, dict) or not isinstance(cells, list):  # not a notebook: nbformat says why, cheaply
        wide = _entries([raw], MAX_WIDTH)
        return (None, f"not a valid notebook (no cell list, {wide:,} or more entries)", None, 0) if wide > MAX_WIDTH \
            else _validated(path, raw, False, 0)
    kept = _entries(_kept(raw, cells), min(MAX_WIDTH, budget))
    if kept > MAX_WIDTH:
        return None, (f"more than {MAX_WIDTH:,} keys and list items in its metadata and cells, where the course's "
                      "notebooks hold about 300"), None, 0
    if kept > budget:
        return None, (f"not read: the submission's notebooks hold more than {MAX_SUBMISSION_WIDTH:,} keys and list "
                      "items in all"), None, 0
    text = 0  # characters of the cells' source; an empty line costs as one character (a list of 20 M of them
    for c in cells:  # fits in the file cap, and nbformat validates each)
        source = c.get("source") if isinstance(c, dict) else None
        if isinstance(source, list) and not all(isinstance(x, str) for x in source):
            return None, "not a valid notebook (a cell's source holds something other than text)", None, 0
        text += len(source) if isinstance(source, str) else sum(max(len(x), 1) for x in source) \
            if isinstance(source, list) else 1
    if text > MAX_SOURCE:
        return None, (f"{text / 2**20:.1f} MiB of cell text, more than {MAX_SOURCE // 2**20} MiB a notebook may "
                      "hold"), None, 0
    lines = sum(len(c["source"]) for c in cells if isinstance(c, dict) and isinstance(c.get("source"), list))
    if not own and kept + lines > budget:  # lines of source, each validated (an assignment's own notebook: within
        # MAX_SOURCE, about 1 s at most, and it comes first)
        return None, (f"not read: the submission's notebooks hold more than {MAX_SUBMISSION_WIDTH:,} keys, list "
                      "items and lines of source in all"), None, 0
    items = sum(len(c.get(k)) for c in cells if isinstance(c, dict) for k in ("outputs", "attachments")
                if isinstance(c.get(k), (list, dict)))
    room = max(0, min(MAX_WIDTH, budget - kept - (0 if own else lines)))
    wide = _entries(_clearable(raw, cells), room)
    if items <= MAX_ITEMS and wide <= room:
        return _validated(path, raw, False, kept + lines + wide)
    for c in cells:
        if isinstance(c, dict) and isinstance(c.get("outputs"), list):
            c["outputs"] = []
        if isinstance(c, dict) and isinstance(c.get("attachments"), dict):
            del c["attachments"]
    if isinstance(raw.get("metadata"), dict):
        raw["metadata"].pop("widgets", None)
    return _validated(path, raw, True, kept + lines + len(cells), cleared=(items, wide))


def _validated(path: str, raw, changed: bool, width: int, cleared: tuple[int, int] | None = None):
    """nbformat's reading of the notebook (from ``raw`` when the intake changed it, else the file as it is)."""
    import json
    try:
        nb = nbformat.reads(json.dumps(raw), as_version=4) if changed else nbtools.read(path)
    except nbtools.NotebookError as exc:
        return None, str(exc).split(": ", 1)[-1], None, 0
    except Exception as exc:  # json errors, schema errors
        return None, f"not a valid notebook ({(str(exc).splitlines() or [type(exc).__name__])[0][:160]})", None, 0
    if not isinstance(nb.get("cells"), list):
        return None, "not a valid notebook (no cell list)", None, 0
    return nb, None, cleared, width


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
    budget = MAX_SUBMISSION_WIDTH  # entries validated for the whole submission, the assignment's notebooks first
    for name in sorted(names, key=lambda n: n not in blank):
        nb, why, n, width = _load(os.path.join(src, name), max(budget, 0), own=name in blank)
        budget -= width
        if n and nb is not None:
            cleared[name] = nb
            items, wide = n
            say(f"{student}: {one_line(name, 120)} held {items:,} outputs and attachments ({wide:,} or more keys and "
                f"list items in them and its widget state), more than {MAX_ITEMS:,} outputs or {MAX_WIDTH:,} entries "
                f"(or what was left of the submission's {MAX_SUBMISSION_WIDTH:,}): cleared before grading "
                "(autograde clears outputs before it runs)", noted=False)
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


def set_aside(path: str, rejected_dir: str, n: int) -> str:
    """Move ``path`` into ``rejected_dir`` as ``<n>-<safe name>`` (a rename: nothing is read or followed); the
    name it got.

    ``rejected_dir`` keeps what earlier gradings set aside, and two names can make one safe name (``x\x01`` and
    ``x\x02``: ``001-x_``): a name taken gets ``.1``, ``.2``... (red team 22, host side: a folder renamed onto an
    earlier grading's failed with ENOTEMPTY and stopped that student's grading; a file replaced the earlier one)."""
    os.makedirs(rejected_dir, exist_ok=True)
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in os.path.basename(path))[:100]
    base = os.path.join(rejected_dir, f"{n:03d}-{safe}")
    dest, k = base, 0
    while os.path.lexists(dest):  # rejected_dir is the grader's: no other account names anything there
        k += 1
        dest = f"{base}.{k}"
    os.rename(path, dest)
    return dest
