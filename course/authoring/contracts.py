"""Contract tables: every sentence of a task's instructions names the hidden checks that enforce it.

    python -m course.authoring.contracts 15-04            # list the problems (what tests/test_contracts.py checks)
    python -m course.authoring.contracts 15-04 --write    # create/update tests/15-04/contract.md (new clauses: TODO)

A task's contract is read from its source notebook:
- the markdown cells before the task's first solution cell, walking back over plain code cells, up to
  and including the first one that starts with a heading (the task's own section), and never past the
  previous task's tests cell;
- markdown cells marked ``# %% [markdown] contract=<task>`` anywhere in the notebook;
- the docstrings in the task's solution cells (module, class and function docstrings).
Each paragraph or list item is split into sentences; each sentence is one clause.

``tests/<id>/contract.md`` holds one table per task (``## `task` ``), one row per clause. Its checks
column lists test function names of that task's suite, or ``(context: why)`` for a sentence that
states nothing a check could enforce. A problem is: a clause with no row or a TODO, a row whose clause
is gone from the notebook, an unknown check, or a check of the task that no clause names.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

from .. import SOURCE_DIR, TESTS_DIR
from .. import notebook as nbtools
from ..judge.generic import signatures

TODO = "TODO"
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_ITEM = re.compile(r"^\s*(?:[*+-]|\d+[.)])\s+")
_MASK = re.compile(r"`[^`]*`|\$\$.*?\$\$|\$[^$]*\$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_`(\[\x00])")


def normalise(text: str) -> str:
    return " ".join(text.split())


def sentences(block: str) -> list[str]:
    """Split one paragraph or list item into sentences (code spans and math are never split)."""
    spans: list[str] = []

    def hide(m):
        spans.append(m.group(0))
        return f"\x00{len(spans) - 1}\x01"

    masked = _MASK.sub(hide, normalise(block))
    parts = _SENTENCE_END.split(masked)
    out = []
    for p in parts:
        p = re.sub(r"\x00(\d+)\x01", lambda m: spans[int(m.group(1))], p).strip()
        if re.search(r"[A-Za-z]", p):
            out.append(p)
    return out


def markdown_clauses(text: str) -> list[str]:
    """Sentences of a markdown cell: headings dropped, a fenced code block kept as one clause."""
    blocks, cur, fence = [], [], None
    for line in text.splitlines():
        if fence is not None:
            fence.append(line)
            if line.strip().startswith("```"):
                blocks.append(("code", "\n".join(fence)))
                fence = None
            continue
        if line.strip().startswith("```"):
            if cur:
                blocks.append(("text", " ".join(cur)))
                cur = []
            fence = [line]
            continue
        if not line.strip() or _HEADING.match(line):
            if cur:
                blocks.append(("text", " ".join(cur)))
            cur = []
            continue
        if _ITEM.match(line) and cur:
            blocks.append(("text", " ".join(cur)))
            cur = []
        cur.append(_ITEM.sub("", line, count=1) if _ITEM.match(line) else line)
    if cur:
        blocks.append(("text", " ".join(cur)))
    if fence:
        blocks.append(("code", "\n".join(fence)))
    out = []
    for kind, b in blocks:
        out.extend([normalise(b)] if kind == "code" else sentences(b))
    return out


def docstring_clauses(source: str) -> list[str]:
    """Sentences of the docstrings in a solution cell (solution regions removed)."""
    lines, skip = [], False
    for ln in source.splitlines():
        if "### BEGIN SOLUTION" in ln:
            skip = True
            lines.append(ln[: len(ln) - len(ln.lstrip())] + "pass")
            continue
        if "### END SOLUTION" in ln:
            skip = False
            continue
        if not skip:
            lines.append(ln)
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if not doc:
                continue
            para: list[str] = []
            for ln in doc.splitlines() + [""]:
                # a blank line, or a "name: ..." line, starts a new item
                if not ln.strip() or (re.match(r"^\s*[\w*][\w, .*()\[\]]*:\s", ln) and para):
                    if para:
                        out.extend(sentences(" ".join(para)))
                    para = [ln] if ln.strip() else []
                else:
                    para.append(ln)
    return out


def source_notebook(assignment: str) -> Path:
    return nbtools.first_in(SOURCE_DIR / assignment)


# The clause every task with a def or class line in its skeleton gets, said to students once per notebook (in
# "How this notebook is graded") and checked by tests/<id>/test_signatures.py (course.judge.generic.signatures).
SIGNATURE_CLAUSE = ("(every task) The skeleton's `def` and `class` lines keep their parameter names, order and "
                    "defaults; a parameter you add comes after them, with a default.")
SIGNATURE_CHECK = "test_signature"


def notebook_contracts(assignment: str) -> dict[str, list[str]]:
    """{task: [clause, ...]} in notebook order, clauses deduplicated."""
    tasks = contracts_of_cells(nbtools.read(source_notebook(assignment)).cells, assignment)
    for task in signatures.tasks(assignment):
        tasks.setdefault(task, []).append(SIGNATURE_CLAUSE)
    return tasks


def contracts_of_cells(cells, assignment: str) -> dict[str, list[str]]:
    tasks: dict[str, list[str]] = {}
    prev_tests = -1
    for i, c in enumerate(cells):
        if not nbtools.is_test_cell(c):
            continue
        calls = [t for a, t in nbtools.hidden_calls(c.source) if a == assignment]
        sol = [j for j in range(prev_tests + 1, i) if nbtools.nbgrader_meta(cells[j]).get("solution")]
        for task in calls:
            found: list[str] = []
            first = sol[0] if sol else i
            md = []
            for j in range(first - 1, prev_tests, -1):
                cj = cells[j]
                if cj.cell_type == "markdown":
                    md.insert(0, cj.source)
                    if _HEADING.match(cj.source.lstrip("\n").splitlines()[0] if cj.source.strip() else ""):
                        break
                elif nbtools.nbgrader_meta(cj):
                    break
            for j, cj in enumerate(cells):
                if cj.cell_type == "markdown" and cj.get("metadata", {}).get("course", {}).get("contract") == task:
                    md.append(cj.source)
            for text in md:
                found += markdown_clauses(text)
            for j in sol:
                found += docstring_clauses(cells[j].source)
            tasks.setdefault(task, [])
            for cl in found:
                if cl not in tasks[task]:
                    tasks[task].append(cl)
        prev_tests = i
    return tasks


def suite_checks(assignment: str) -> dict[str, set[str]]:
    """{task: {test function name}} from the task markers in tests/<id>/test_*.py."""
    out: dict[str, set[str]] = {}

    def task_of(dec) -> str | None:
        if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "task"
                and dec.args and isinstance(dec.args[0], ast.Constant)):
            return dec.args[0].value
        return None

    if (TESTS_DIR / assignment / "test_signatures.py").exists():  # one check per task, parametrized by task
        for task in signatures.tasks(assignment):
            out.setdefault(task, set()).add(SIGNATURE_CHECK)
    for path in sorted((TESTS_DIR / assignment).glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_task = None
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
                vals = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                module_task = next((task_of(v) for v in vals if task_of(v)), module_task)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                task = next((task_of(d) for d in node.decorator_list if task_of(d)), None) or module_task
                if task:
                    out.setdefault(task, set()).add(node.name)
    return out


def suite_essential(assignment: str) -> dict[str, set[str]]:
    """{task: {test function name}} of the checks marked ``@pytest.mark.essential``."""
    out: dict[str, set[str]] = {}
    marked = set()
    for path in sorted((TESTS_DIR / assignment).glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    getattr(d.func if isinstance(d, ast.Call) else d, "attr", None) == "essential"
                    for d in node.decorator_list):
                marked.add(node.name)
    for task, names in suite_checks(assignment).items():
        if names & marked:
            out[task] = names & marked
    return out


def contract_path(assignment: str) -> Path:
    return TESTS_DIR / assignment / "contract.md"


def _cells_of(line: str) -> list[str]:
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def read_table(path: Path) -> dict[str, list[tuple[str, str]]]:
    """{task: [(clause, checks cell), ...]} from contract.md."""
    tables: dict[str, list[tuple[str, str]]] = {}
    task = None
    if not path.exists():
        return tables
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^##\s+`?([\w.-]+)`?\s*$", line)
        if m:
            task = m.group(1)
            tables.setdefault(task, [])
            continue
        if task and line.strip().startswith("|"):
            cells = _cells_of(line)
            if len(cells) < 2 or cells[0] == "clause" or set(cells[0]) <= set("-: "):
                continue
            tables[task].append((normalise(cells[0]), cells[1]))
    return tables


def parse_checks(cell: str) -> list[str] | None:
    """Check names in a checks cell; None for a context row; [] for TODO or empty."""
    cell = cell.strip()
    if re.match(r"^\(context:\s*[^\s)]", cell):
        return None
    if not cell or cell == TODO:
        return []
    return [n.strip().strip("`").split("::")[-1] for n in cell.split(",") if n.strip()]


def problems(assignment: str) -> list[str]:
    path = contract_path(assignment)
    if not path.exists():
        return [f"{assignment}: no {path.relative_to(TESTS_DIR.parent)} (create it: python -m course.authoring.contracts "
                f"{assignment} --write)"]
    return compare(notebook_contracts(assignment), suite_checks(assignment), read_table(path),
                   suite_essential(assignment))


ESSENTIAL = "Essential"  # a task's sentence that starts so names the checks marked @pytest.mark.essential


def compare(contracts: dict, checks: dict, table: dict, essential: dict | None = None) -> list[str]:
    out = []
    essential = essential or {}
    for task, clauses in contracts.items():
        rows = dict(table.get(task, []))
        named: set[str] = set()
        said = [cl for cl in clauses if cl.startswith(ESSENTIAL)]
        if essential.get(task) and not said:
            out.append(f"{task}: checks marked essential ({', '.join(sorted(essential[task]))}) but no sentence "
                       f"of the task's text starting '{ESSENTIAL}' says which clauses are")
        for cl in clauses:
            if cl not in rows:
                out.append(f"{task}: clause without a row: {cl!r}")
                continue
            names = parse_checks(rows[cl])
            if cl in said and set(names or []) != essential.get(task, set()):
                out.append(f"{task}: the '{ESSENTIAL}' sentence's checks ({', '.join(sorted(names or [])) or 'none'}) "
                           f"are not the checks marked @pytest.mark.essential "
                           f"({', '.join(sorted(essential.get(task, set()))) or 'none'})")
            if names == []:
                out.append(f"{task}: clause without a check: {cl!r}")
            for n in names or []:
                if n not in checks.get(task, set()):
                    out.append(f"{task}: {n!r} is not a check of this task (clause {cl[:60]!r})")
                named.add(n)
        for cl in rows:
            if cl not in clauses:
                out.append(f"{task}: stale row, the notebook no longer says: {cl!r}")
        for n in sorted(checks.get(task, set()) - named):
            out.append(f"{task}: check {n} enforces no clause of the task's text")
    for task in table:
        if task not in contracts:
            out.append(f"{task}: table for a task the notebook does not have")
    return out


def render(assignment: str) -> str:
    contracts = notebook_contracts(assignment)
    old = read_table(contract_path(assignment))
    lines = [f"# Contract of {assignment}", "",
             "Every sentence of a task's instructions (the markdown before its solution cell and the "
             "docstrings in it), and the hidden checks that enforce it; `(context: ...)` marks a sentence "
             "that states nothing checkable. Kept in step by `python -m course.authoring.contracts "
             f"{assignment} --write` and checked by `tests/test_contracts.py`.", ""]
    for task, clauses in contracts.items():
        rows = dict(old.get(task, []))
        lines += [f"## `{task}`", "", "| clause | checks |", "|---|---|"]
        for cl in clauses:
            lines.append(f"| {cl.replace('|', chr(92) + '|')} | {rows.get(cl, TODO)} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.contracts")
    ap.add_argument("assignment")
    ap.add_argument("--write", action="store_true", help="create or update tests/<id>/contract.md")
    args = ap.parse_args(argv)
    if args.write:
        contract_path(args.assignment).write_text(render(args.assignment), encoding="utf-8")
        print(f"written: {contract_path(args.assignment)}")
    found = problems(args.assignment)
    for p in found:
        print(p)
    print(f"{args.assignment}: {len(found)} problem(s)" if found else f"{args.assignment}: every clause has a check")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
