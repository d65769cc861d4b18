"""Which tasks of a topic an example submission can change: the tasks whose solution cells it replaces, and every
task whose checks or cells read, directly or through the notebook's other cells, a name those cells define.

Used by tests/test_submissions.py to judge a correct example only where its code can make a difference: a task whose
cells, the cells they read and the probes its checks call are all the reference's is the reference's verdict, which
the reference run judges. The reading is static and errs wide: a cell that cannot be parsed, a spec that appends
cells or mutates the notebook, or a replaced cell no task owns reaches every task (None)."""
from __future__ import annotations

import ast
import functools
import re

from course import SOURCE_DIR, TESTS_DIR
from course import notebook as nbtools
from course.authoring.mutants import tasks_of_cells


def _tree(source: str):
    """The cell's syntax tree after IPython's transforms (magics become calls), or None."""
    from IPython.core.inputtransformer2 import TransformerManager
    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError):
        return None


def defined(tree) -> set[str]:
    """Names a cell binds at its top level (imports left out: a module or name imported again is the same object
    wherever it is imported; ``_``, the throwaway name, too)."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
            out |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                    and node is not n and isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While))}
    return out - {"_"}


def reads(source: str) -> set[str] | None:
    """The global names a cell reads: at its top level, and in its functions and classes where a name is no local
    of theirs (``symtable``), or None where it cannot be parsed."""
    import symtable
    from IPython.core.inputtransformer2 import TransformerManager
    try:
        top = symtable.symtable(TransformerManager().transform_cell(source), "<cell>", "exec")
    except (SyntaxError, ValueError):
        return None
    out, todo = set(), [top]
    while todo:
        table = todo.pop()
        for sym in table.get_symbols():
            if sym.is_referenced() and (table is top or sym.is_global()):
                out.add(sym.get_name())
        todo += table.get_children()
    return out


def mentioned(tree) -> set[str]:
    """Every identifier, attribute name and string a piece of code contains (a probe or a cell may look a name up
    as a string: ``ns["ring_pass"]``, ``getattr(m, "fold")``)."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and _root(n) not in _LIBRARIES:
            out.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.add(n.value)
    return out - {"_"}


_LIBRARIES = {"torch", "nn", "F", "dist", "math", "np", "numpy", "os", "sys", "functools", "itertools", "re", "json",
              "time", "pytest", "hypothesis", "st"}  # an attribute of these (``torch._C``) is not a notebook name


def _root(node) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _words(tree) -> set[str]:
    """What a piece of the judge can look up in the submission's namespace: the identifiers inside its strings (a
    probe reads ``ns["ring_pass"]``, a check names a probe or a function as a string, a snippet is run by ``exec``) and
    the attributes of ``student``."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", n.value))
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "student":
            out.add(n.attr)
    return out


@functools.lru_cache(maxsize=None)
def names_checks_read(assignment: str) -> dict[str, frozenset[str]]:
    """Per task, what its hidden checks can look up in the submission's namespace (``_words``): in the test files
    that mark it, in the top-level code of the helper modules they load, and in the helper and probe functions they
    name, followed through the functions those name."""
    files = sorted((TESTS_DIR / assignment).glob("*.py"))
    trees = {f: ast.parse(f.read_text()) for f in files}
    helpers = {f: t for f, t in trees.items() if not f.name.startswith("test_")}
    funcs: dict[str, tuple[set[str], set[str]]] = {}  # a helper's function -> (names it mentions, its words)
    for tree in helpers.values():
        for d in tree.body:
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                refs, words = funcs.setdefault(d.name, (set(), set()))
                refs |= mentioned(d)
                words |= _words(d)

    def follow(start: set[str]) -> set[str]:
        seen, todo = set(), [x for x in start if x in funcs]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += [r for r in funcs[name][0] if r in funcs and r not in seen]
        return set().union(set(), *(funcs[n][1] for n in seen))

    out: dict[str, set[str]] = {}
    for f, tree in trees.items():
        if f in helpers:
            continue
        refs, words = mentioned(tree) | _words(tree), _words(tree)
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | \
            {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        for h, htree in helpers.items():
            if h.name in refs or h.stem in imported:  # a helper module it loads: its own top-level code
                body = ast.Module(body=[d for d in htree.body if not isinstance(
                    d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))], type_ignores=[])
                refs |= mentioned(body) | _words(body)
                words |= _words(body)
        words |= follow(refs)
        for task in re.findall(r"""mark\.task\(\s*["']([^"']+)["']""", f.read_text()):
            out.setdefault(task, set()).update(words)
    return {t: frozenset(v) for t, v in out.items()}


def tasks_reached(assignment: str, spec: dict) -> set[str] | None:
    """The tasks whose verdict ``spec`` (an example built on the reference) can change, or None for every task."""
    if spec.get("BASE", "reference") != "reference" or spec.get("APPEND") or "mutate" in spec or "RAW" in spec:
        return None
    nb = nbtools.read(nbtools.first_in(SOURCE_DIR / assignment))
    task_of = tasks_of_cells(nb)
    cells = spec.get("CELLS") or {}
    tasks, names = set(), set()
    for gid, source in cells.items():
        new, old = _tree(source), None
        for c in nb.cells:
            if nbtools.nbgrader_meta(c).get("grade_id") == gid:
                old = _tree(c.source)
        if gid not in task_of or new is None or old is None:
            return None
        tasks.add(task_of[gid])
        names |= defined(new) | defined(old)
    # through the notebook's other cells: a cell that reads a changed name is changed, and so are the names it binds
    others = []
    for c in nb.cells:
        gid = nbtools.nbgrader_meta(c).get("grade_id")
        if c.cell_type != "code" or gid in cells or nbtools.is_test_cell(c):
            continue
        tree, read = _tree(c.source), reads(c.source)
        if tree is None or read is None:
            return None
        made = {d.name for d in tree.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        others.append((task_of.get(gid), defined(tree), read, made))
    grew, seen_by_checks = True, set(names)
    while grew:
        grew = False
        for task, binds, read, made in others:
            if read & names and not binds <= names:
                names |= binds
                seen_by_checks |= made
                grew = True
            if read & names and task is not None and task not in tasks:
                tasks.add(task)
                grew = True
    # a name a replaced cell defines, or a function or class a given cell defines from one, wherever a check's strings
    # hold it (a demo's variables, ``grads``, ``p``, are not looked up by any check: demos do not run under autograde)
    tasks |= {t for t, words in names_checks_read(assignment).items() if words & seen_by_checks}
    return tasks
