"""Reading course notebooks: cell roles, hidden-check calls, submission code.

Also converts the diff-friendly authoring format (``*.nb.py``, percent cells)
into the ``.ipynb`` that nbgrader reads. Cell headers::

    # %% [markdown]              markdown; each line starts with "# "
    # %% [markdown] contract=T   markdown that is part of task T's contract (course.authoring.contracts)
    # %%                         plain code (imports, demos)
    # %% [solution] id=NAME      autograded answer (### BEGIN/END SOLUTION inside)
    # %% [tests] id=NAME points=N   autograded test cell (visible checks + hidden call)
    # %% [locked] id=NAME        read-only code
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

HIDDEN_CALL = re.compile(r"""run_hidden\(\s*["']([\w\-.]+)["']\s*,\s*["']([\w\-.]+)["']""")
_HEADER = re.compile(r"^# %%(?:\s*\[(\w+)\])?(.*)$")


class NotebookError(ValueError):
    """A notebook file that cannot be read as a notebook."""


def first_in(folder: str | Path, hint: str = "") -> Path:
    """The notebook of ``folder`` (the first ``*.ipynb`` by name); FileNotFoundError if it has none."""
    nbs = sorted(Path(folder).glob("*.ipynb"))
    if not nbs:
        raise FileNotFoundError(f"no notebook in {folder}" + (f": {hint}" if hint else ""))
    return nbs[0]


def read(path: str | Path) -> nbformat.NotebookNode:
    """Read a notebook or raise NotebookError with one clear line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NotebookError(f"{path.name}: cannot be read ({exc.__class__.__name__})") from None
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as exc:  # json errors, schema errors, truncated files
        msg = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        raise NotebookError(f"{path.name}: not a valid notebook ({msg[:160]})") from None
    if not isinstance(nb.get("cells"), list):
        raise NotebookError(f"{path.name}: not a valid notebook (no cell list)")
    return nb


def nbgrader_meta(cell) -> dict:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


def is_test_cell(cell) -> bool:
    m = nbgrader_meta(cell)
    return cell.get("cell_type") == "code" and bool(m.get("grade")) and not m.get("solution")


def hidden_calls(source: str) -> list[tuple[str, str]]:
    """The (assignment, task) pairs a test cell's hidden block asks for."""
    return HIDDEN_CALL.findall(source or "")


def tasks_of_cells(nb) -> dict[str, str]:
    """Solution cell grade_id -> the task of the next test cell that calls run_hidden."""
    out, pending = {}, []
    for c in nb.cells:
        meta = nbgrader_meta(c)
        if meta.get("solution") and c.cell_type == "code":
            pending.append(meta.get("grade_id"))
        calls = hidden_calls(c.source) if is_test_cell(c) else []
        if calls:
            for gid in pending:
                out[gid] = calls[0][1]
            pending = []
    return out


def submission_code(nb) -> list[str]:
    """The code a submission defines: every code cell except autograder test cells.

    Test cells are left out, so nothing a student types into (or around) a
    test cell can change what the checks see.
    """
    return [c.get("source", "") for c in nb.cells if c.get("cell_type") == "code" and not is_test_cell(c)]


# --------------------------------------------------------------------- authoring

@dataclass
class _Cell:
    kind: str
    attrs: dict
    lines: list


def _cell_id(kind: str, attrs: dict, index: int) -> str:
    base = attrs.get("id") or f"{kind}-{index}"
    return hashlib.sha1(base.encode()).hexdigest()[:12]


def from_percent(text: str) -> nbformat.NotebookNode:
    """Build a notebook (with nbgrader metadata) from percent-format text."""
    cells: list[_Cell] = []
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            attrs = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv)
            cells.append(_Cell(m.group(1) or "code", attrs, []))
        elif cells:
            cells[-1].lines.append(line)
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    seen = set()
    for i, c in enumerate(cells):
        while c.lines and not c.lines[-1].strip():
            c.lines.pop()
        while c.lines and not c.lines[0].strip():
            c.lines.pop(0)
        if c.kind == "markdown":
            src = "\n".join(re.sub(r"^# ?", "", ln) for ln in c.lines)
            cell = nbformat.v4.new_markdown_cell(src)
            if c.attrs.get("contract"):  # more text of that task's contract (course.authoring.contracts)
                cell.metadata["course"] = {"contract": c.attrs["contract"]}
        else:
            cell = nbformat.v4.new_code_cell("\n".join(c.lines))
        cell.id = _cell_id(c.kind, c.attrs, i)
        if c.kind in ("solution", "tests", "locked"):
            gid = c.attrs.get("id")
            if not gid or gid in seen:
                raise ValueError(f"cell {i} ({c.kind}) needs a unique id=..., got {gid!r}")
            seen.add(gid)
            meta = {"grade": c.kind == "tests", "grade_id": gid, "locked": c.kind != "solution",
                    "schema_version": 3, "solution": c.kind == "solution"}
            if c.kind == "tests":
                meta["points"] = float(c.attrs.get("points", 1))
            cell.metadata["nbgrader"] = meta
            if c.kind != "solution":
                cell.metadata["deletable"] = False
                cell.metadata["editable"] = False
        elif c.kind not in ("code", "markdown"):
            raise ValueError(f"cell {i}: unknown cell kind [{c.kind}]")
        nb.cells.append(cell)
    return nb


def write(nb, path: str | Path) -> None:
    Path(path).write_text(json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
