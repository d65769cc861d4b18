"""Mutation testing of a hidden suite: can each check fail on a plausible wrong answer?

    python -m course.authoring.mutants 15-01 [--task NAME] [--timeout 60] [--write] [--limit N]

Takes the reference solution cells of ``source/<id>/`` and makes one small change at a time inside
the ``### BEGIN/END SOLUTION`` lines (the code a student writes):

- arithmetic operators (``+ -``, ``* /``, ``** *``), comparisons (``< <=``, ``> >=``, ``== !=``, and
  flipped), ``and``/``or``, a dropped unary minus or ``not``;
- constants (``n+1``, ``n*2``, ``0 -> 1``, ``True <-> False``);
- a dropped statement (replaced by ``pass``), swapped positional arguments;
- a removed ``.detach()`` / ``.clone()`` / ``.sum_to_size(...)`` / ``.abs()`` ..., ``torch.no_grad()`` / ``enable_grad()`` blocks run as plain
  blocks, in-place methods made out-of-place (``add_ -> add``) and the reverse;
- dtype changes (``float64 -> float32``, ``long -> int32``);
- mistake-shaped changes (``--mistakes``): a copy not made (``list(x)``, ``dict(x)``, ``deepcopy(x)`` ->
  ``x``), ``reshape -> view``, ``allclose -> equal``, ``modules -> children``, ``deepcopy -> copy``,
  a scoping ``with`` (``catch_warnings``, ``detect_anomaly``, ``autocast`` ...) removed with its body kept,
  a looser tolerance (``atol=``/``rtol=``/``eps=`` ten times larger, ``allclose`` given ``atol=1e-4``), and
  an early return of the first argument for the "trivial" case (a tensor of at most one element, or an
  empty or one-item list, tuple or dict).

Each mutant replaces one solution cell; the notebook's code is loaded in a forked child (the
parent has imported torch and the suite once) and the task's hidden checks run in-process against
it, as ``run_hidden`` does. A mutant is *killed* when at least one check fails (a crash or a timeout
counts), *survived* otherwise. Mutants listed as equivalent in ``tests/<id>/mutants.md`` (a line
``- `ID`: why``) do not count. ``--write`` rewrites the numbers section of that file.

This is a benchmark for authors (``make mutants ID=15-01``), not part of CI: a topic has a few
hundred mutants.
"""
from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import os
import re
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .. import SOURCE_DIR, TESTS_DIR
from .. import notebook as nbtools
from ..notebook import tasks_of_cells  # noqa: F401  (tests/example_reach.py, test_submissions.py)

BIN_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.Pow: ast.Mult,
             ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv}
CMP_SWAPS = {ast.Lt: [ast.LtE, ast.Gt], ast.LtE: [ast.Lt, ast.GtE], ast.Gt: [ast.GtE, ast.Lt],
             ast.GtE: [ast.Gt, ast.LtE], ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq], ast.Is: [ast.IsNot],
             ast.IsNot: [ast.Is], ast.In: [ast.NotIn], ast.NotIn: [ast.In]}
DTYPES = {"float64": "float32", "double": "float32", "float32": "float64", "long": "int32", "int64": "int32"}
DROP_CALLS = {"detach", "clone", "contiguous", "sum_to_size", "abs", "float", "double", "item", "t"}
GRAD_BLOCKS = {"no_grad", "enable_grad", "inference_mode"}
# Mistake-shaped operators (their descriptions start with MISTAKE): the design choices students make
# that break one promise of the text, rather than one-token slips.
MISTAKE = "mistake: "
RENAMES = {"reshape": "view", "allclose": "equal", "isclose": "eq", "modules": "children",
           "named_modules": "named_children", "deepcopy": "copy", "flatten": "view"}
COPIES = {"deepcopy", "copy", "clone", "list", "dict", "tuple", "contiguous", "copy_"}
TOLERANCES = {"atol", "rtol", "eps", "tol", "tolerance"}
# The "trivial case" a student returns early for: one element, or an empty or one-item container.
# Only for a first argument that may be a tensor or a container: not a module, a name, a callback ...
NOT_DATA = {"ctx", "self", "cls", "model", "module", "mod", "m", "net", "gm", "graph", "name", "fn", "func",
            "hook", "path", "optimizer", "opt", "trainer", "sampler", "dataset", "loader", "config", "cfg",
            "callback", "state", "engine", "device", "dtype", "rnn", "ep", "step"}
DATA_ANNOTATIONS = ("Tensor", "list", "tuple", "dict", "Sequence", "Iterable", "List", "Tuple", "Dict", "Mapping")
TRIVIAL = ("(len({a}) if isinstance({a}, (list, tuple, dict)) else {a}.numel() "
           "if isinstance({a}, torch.Tensor) else 2) <= 1")


@dataclass
class Mutant:
    cell: str       # grade_id of the solution cell
    task: str       # the task whose checks judge it
    line: int       # line in the cell
    what: str       # one-line description
    source: str     # the mutated cell

    @property
    def id(self) -> str:
        return hashlib.sha1(f"{self.cell}|{self.what}|{self.source}".encode()).hexdigest()[:8]


def _solution_lines(src: str) -> set[int]:
    inside, lines = False, set()
    for i, line in enumerate(src.splitlines(), start=1):
        if "BEGIN SOLUTION" in line:
            inside = True
        elif "END SOLUTION" in line:
            inside = False
        elif inside:
            lines.add(i)
    return lines


class _Sites(ast.NodeVisitor):
    """Every (node, replacement-maker, description) inside the solution lines."""

    def __init__(self, lines: set[int]):
        self.lines, self.sites = lines, []

    def _in(self, node) -> bool:
        return getattr(node, "lineno", None) in self.lines

    def add(self, node, field, new, what):
        self.sites.append((node, field, new, what))

    def visit_BinOp(self, node):
        if self._in(node) and type(node.op) in BIN_SWAPS:
            new = BIN_SWAPS[type(node.op)]()
            self.add(node, "op", new, f"{type(node.op).__name__} -> {type(new).__name__}")
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if self._in(node) and type(node.op) in BIN_SWAPS:
            new = BIN_SWAPS[type(node.op)]()
            self.add(node, "op", new, f"augmented {type(node.op).__name__} -> {type(new).__name__}")
        if self._in(node) and isinstance(node.op, ast.Add):
            plain = ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)
            self.add(node, None, plain, f"{MISTAKE}`{ast.unparse(node.target)} += ...` -> `= ...` "
                                        f"(the last value kept, not the running total)")
        self.generic_visit(node)

    def visit_Assign(self, node):
        """``d[k] = d.get(k, 0) + v`` or ``total = total + v`` written as ``= v``: a count or sum that keeps
        only the last value."""
        v = node.value
        if self._in(node) and len(node.targets) == 1 and isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add):
            target, left = ast.unparse(node.targets[0]), v.left
            running = ast.unparse(left) == target or isinstance(left, ast.Call) and \
                isinstance(left.func, ast.Attribute) and left.func.attr == "get" and left.args and \
                isinstance(node.targets[0], ast.Subscript) and \
                ast.unparse(left.func.value) == ast.unparse(node.targets[0].value)
            if running:
                self.add(node, "value", v.right, f"{MISTAKE}`{target} = {ast.unparse(left)} + ...` -> "
                                                 f"`{target} = ...` (the last value kept, not the running total)")
        self.generic_visit(node)

    def visit_Compare(self, node):
        if self._in(node):
            for k, op in enumerate(node.ops):
                for new in CMP_SWAPS.get(type(op), []):
                    ops = list(node.ops)
                    ops[k] = new()
                    self.add(node, "ops", ops, f"{type(op).__name__} -> {new.__name__}")
        self.generic_visit(node)

    def visit_BoolOp(self, node):
        if self._in(node):
            new = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            self.add(node, "op", new, f"{type(node.op).__name__} -> {type(new).__name__}")
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if self._in(node) and isinstance(node.op, (ast.USub, ast.Not)):
            self.add(node, None, node.operand, f"dropped unary {type(node.op).__name__}")
        self.generic_visit(node)

    def visit_Constant(self, node):
        if self._in(node):
            v = node.value
            if isinstance(v, bool):
                self.add(node, "value", not v, f"{v} -> {not v}")
            elif isinstance(v, (int, float)):
                for new in ({v + 1, v * 2} if v != 0 else {1}):
                    if new != v:
                        self.add(node, "value", new, f"constant {v!r} -> {new!r}")

    def visit_Call(self, node):
        if self._in(node):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in DROP_CALLS:
                self.add(node, None, f.value, f"dropped .{f.attr}()")
            if isinstance(f, ast.Attribute) and f.attr.endswith("_") and not f.attr.startswith("_") \
                    and f.attr[:-1].isidentifier():
                self.add(f, "attr", f.attr[:-1], f"in-place .{f.attr} -> .{f.attr[:-1]}")
            elif isinstance(f, ast.Attribute) and f.attr in ("add", "mul", "sub", "div", "clamp", "zero", "copy"):
                self.add(f, "attr", f.attr + "_", f".{f.attr} -> in-place .{f.attr}_")
            self._mistakes_in_call(node)
            if len(node.args) >= 2:
                args = list(node.args)
                args[0], args[1] = args[1], args[0]
                self.add(node, "args", args, "swapped the first two arguments")
        self.generic_visit(node)

    def _mistakes_in_call(self, node):
        """A copy that is not made (the input itself is returned or kept), a method or function that
        does almost the same (view for reshape, equal for allclose, children for modules)."""
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if name in COPIES and len(node.args) == 1 and not node.keywords and not isinstance(f, ast.Attribute) \
                or name in COPIES and isinstance(f, ast.Attribute) and f.attr in ("deepcopy", "copy", "clone") \
                and isinstance(f.value, ast.Name) and f.value.id in ("copy", "torch") and len(node.args) == 1:
            self.add(node, None, node.args[0], f"{MISTAKE}{name}(x) -> x (no copy: the input itself)")
        if isinstance(f, ast.Attribute) and f.attr in RENAMES:
            two_args = f.attr not in ("allclose", "isclose") or (len(node.args) == 2 and not node.keywords)
            if two_args:
                self.add(f, "attr", RENAMES[f.attr], f"{MISTAKE}.{f.attr} -> .{RENAMES[f.attr]}")
        if name in ("allclose", "isclose") and not any(k.arg in ("atol", "rtol") for k in node.keywords):
            looser = node.keywords + [ast.keyword(arg="atol", value=ast.Constant(1e-4))]
            self.add(node, "keywords", looser, f"{MISTAKE}{name}(...) -> {name}(..., atol=1e-4) (a looser tolerance)")
        for k, kw in enumerate(node.keywords):
            if kw.arg in TOLERANCES and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, float):
                kws = copy.deepcopy(node.keywords)
                kws[k].value = ast.Constant(kw.value.value * 10)
                self.add(node, "keywords", kws, f"{MISTAKE}{kw.arg}={kw.value.value!r} -> {kw.value.value * 10!r} "
                                                f"(a looser tolerance)")

    def visit_FunctionDef(self, node):
        """An early return of the first argument for the trivial case (one element, an empty batch)."""
        first = next((a for a in node.args.args if a.arg not in ("self", "cls", "ctx")), None)
        note = ast.unparse(first.annotation) if first is not None and first.annotation is not None else ""
        data = first is not None and first.arg not in NOT_DATA and not first.arg.endswith(("_fn", "_path")) \
            and not first.arg.startswith("num_") and (not note or any(w in note for w in DATA_ANNOTATIONS))
        args = [first.arg] if data else []
        body = node.body
        k = 1 if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else 0
        generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))
        if args and k < len(body) and self._in(body[k]) and node.name != "__init__" and not generator:
            a = args[0]
            stmt = ast.parse(f"if {TRIVIAL.format(a=a)}:\n    return {a}").body[0]
            self.add(node, ("insert", "body", k), stmt,
                     f"{MISTAKE}{node.name}() returns {a} itself early for the trivial case (one element, "
                     f"empty or one item)")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if self._in(node) and isinstance(node.value, ast.Name) and node.value.id == "torch" and node.attr in DTYPES:
            self.add(node, "attr", DTYPES[node.attr], f"torch.{node.attr} -> torch.{DTYPES[node.attr]}")
        self.generic_visit(node)

    def visit_With(self, node):
        if self._in(node):
            for item in node.items:
                c = item.context_expr
                name = c.func.attr if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) else None
                if name in GRAD_BLOCKS:
                    self.add(node, "unwrap", node.body, f"`with torch.{name}()` removed")
                elif isinstance(c, ast.Call) and item.optional_vars is None and len(node.items) == 1:
                    # scoped state made global: catch_warnings, detect_anomaly, fork_rng, autocast ...
                    self.add(node, "unwrap", node.body, f"{MISTAKE}`with {ast.unparse(c.func)}(...)` removed, "
                                                        f"its body kept")
        self.generic_visit(node)

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):  # a lambda's or conditional expression's body is an expression
                continue
            for k, stmt in enumerate(stmts):
                if self._in(stmt) and isinstance(stmt, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign,
                                                        ast.Return, ast.If, ast.For, ast.With)):
                    self.sites.append((node, ("drop", field, k), None, f"dropped the statement on line {stmt.lineno}"))
        super().generic_visit(node)


def _apply(tree, site) -> ast.AST:
    """A copy of ``tree`` with one site changed."""
    node, field, new, _ = site
    path = _path_to(tree, node)
    tree2 = copy.deepcopy(tree)
    target = _follow(tree2, path)
    if isinstance(field, tuple) and field[0] == "insert":
        _, name, k = field
        getattr(target, name).insert(k, copy.deepcopy(new))
    elif isinstance(field, tuple) and field[0] == "drop":
        _, name, k = field
        body = getattr(target, name)
        body[k] = ast.copy_location(ast.Pass(), body[k])
    elif field == "unwrap":
        parent, attr, idx = _parent_of(tree2, target)
        seq = getattr(parent, attr)
        seq[idx:idx + 1] = target.body
    elif field is None:  # replace the node by ``new`` (a sub-node of it)
        parent, attr, idx = _parent_of(tree2, target)
        repl = copy.deepcopy(new)
        if idx is None:
            setattr(parent, attr, repl)
        else:
            getattr(parent, attr)[idx] = repl
    else:
        setattr(target, field, copy.deepcopy(new))
    return ast.fix_missing_locations(tree2)


def _path_to(root, node):
    """Field path from ``root`` to ``node`` (identity)."""
    stack = [(root, [])]
    while stack:
        cur, path = stack.pop()
        if cur is node:
            return path
        for name, value in ast.iter_fields(cur):
            if isinstance(value, ast.AST):
                stack.append((value, path + [(name, None)]))
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, ast.AST):
                        stack.append((v, path + [(name, i)]))
    raise KeyError("node not found")


def _follow(root, path):
    cur = root
    for name, idx in path:
        cur = getattr(cur, name) if idx is None else getattr(cur, name)[idx]
    return cur


def _parent_of(root, node):
    for parent in ast.walk(root):
        for name, value in ast.iter_fields(parent):
            if value is node:
                return parent, name, None
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is node:
                        return parent, name, i
    raise KeyError("no parent")


def mutants(assignment: str, only_task: str | None = None) -> list[Mutant]:
    nb = nbtools.read(nbtools.first_in(SOURCE_DIR / assignment))
    task_of = tasks_of_cells(nb)
    out, seen = [], set()
    for c in nb.cells:
        gid = nbtools.nbgrader_meta(c).get("grade_id")
        if gid not in task_of or (only_task and task_of[gid] != only_task):
            continue
        lines = _solution_lines(c.source)
        tree = ast.parse(c.source)
        finder = _Sites(lines)
        finder.visit(tree)
        for site in finder.sites:
            try:
                src = ast.unparse(_apply(tree, site))
                compile(src, "<mutant>", "exec")
            except Exception:
                continue
            m = Mutant(gid, task_of[gid], getattr(site[0], "lineno", 0), site[3], src)
            if src not in seen and src != ast.unparse(tree):
                seen.add(src)
                out.append(m)
    return out


def _judge(assignment: str, task: str | list[str], cells: list[str], timeout: float) -> tuple[str, str]:
    """('killed' | 'survived', detail) for one mutated notebook, in a forked child, judged by the checks
    of ``task`` (or of each task in a list)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: load the notebook's code and run the task's checks in-process
        os.close(r)
        status = ("killed", "crash")
        try:
            import contextlib
            import io
            from IPython.core.interactiveshell import InteractiveShell
            ns = InteractiveShell.instance().user_ns
            buf = io.StringIO()
            import linecache
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
                for i, src in enumerate(cells, start=1):
                    name = f"<cell {i}>"  # in linecache, as the worker does: Triton's jit reads its source back
                    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
                    try:
                        exec(compile(src, name, "exec"), ns)
                    except BaseException:
                        pass
                from ..judge.inprocess import run_in_process
                try:
                    run_in_process(assignment, task, ns)
                    status = ("survived", "")
                except AssertionError as exc:
                    failed = getattr(exc, "failed", [])  # inprocess.HiddenChecksFailed: the failed checks
                    status = ("killed", (f"{failed[0].title}: {failed[0].message}" if failed else str(exc))[:160])
        except BaseException as exc:
            status = ("killed", f"{type(exc).__name__}")
        os.write(w, json.dumps(status).encode())
        os._exit(0)
    os.close(w)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(r)
        return "killed", f"timeout after {timeout:.0f} s"
    data = os.read(r, 65536)
    os.close(r)
    try:
        return tuple(json.loads(data))
    except ValueError:
        return "killed", "crash"


def equivalents(assignment: str) -> dict[str, str]:
    path = TESTS_DIR / assignment / "mutants.md"
    if not path.exists():
        return {}
    text = path.read_text()
    section = text[text.index("## Equivalent mutants"):] if "## Equivalent mutants" in text else ""
    out = {}  # a line may explain several: "- `1a2b3c4d` / `5e6f7a8b` task · ...: why"
    for line in section.splitlines():
        head, sep, why = line.partition(": ")
        if line.startswith("- `") and sep:
            out.update((i, why) for i in re.findall(r"`([0-9a-f]{8})`", head))
    return out


def run(assignment: str, only_task: str | None, timeout: float, limit: int | None, log=print,
        mistakes: bool = False) -> dict:
    os.environ.setdefault("COURSE_FAST", "1")
    os.environ.setdefault("MPLBACKEND", "Agg")
    import warnings
    warnings.simplefilter("ignore")
    import torch  # noqa: F401  (imported once, before forking)
    import pytest  # noqa: F401
    nb = nbtools.read(nbtools.first_in(SOURCE_DIR / assignment))
    base = [(nbtools.nbgrader_meta(c).get("grade_id"), c.source) for c in nb.cells
            if c.cell_type == "code" and not nbtools.is_test_cell(c)]
    equiv = equivalents(assignment)
    ms = mutants(assignment, only_task)
    if mistakes:
        ms = [m for m in ms if m.what.startswith(MISTAKE)]
    # every task with hidden checks (a task may own no solution cell: 15-07's empty_cache is a method
    # written in the allocator's cell)
    all_tasks = sorted({t for c in nb.cells if nbtools.is_test_cell(c) for _, t in nbtools.hidden_calls(c.source)})
    if limit:
        ms = ms[:limit]
    results: dict[str, dict] = {}
    t0 = time.monotonic()
    for k, m in enumerate(ms, start=1):
        cells = [m.source if gid == m.cell else src for gid, src in base]
        status, detail = ("equivalent", equiv[m.id]) if m.id in equiv else _judge(assignment, m.task, cells, timeout)
        if status == "survived" and len(all_tasks) > 1:
            # Code shared between tasks (a helper, a method another task drives) is also the other tasks'
            # concern: a mutant their checks catch is caught by the suite. Say which ones did.
            status, detail = _judge(assignment, all_tasks, cells, timeout)
            if status == "killed":
                detail = f"by another task's checks: {detail}"
        r = results.setdefault(m.task, {"killed": 0, "survived": 0, "equivalent": 0, "survivors": []})
        r[status] += 1
        r.setdefault("all", []).append({"id": m.id, "status": status, "what": m.what})
        if status == "survived":
            r["survivors"].append({"id": m.id, "cell": m.cell, "line": m.line, "what": m.what})
        log(f"[{k}/{len(ms)} {time.monotonic() - t0:5.0f}s] {m.task:16} {m.id} {status:10} {m.cell}:{m.line} "
            f"{m.what}" + (f"  ({detail})" if detail and (status != "killed" or "another task" in detail) else ""))
    return results


def score_table(results: dict) -> str:
    rows = ["| task | mutants | killed | survived | equivalent | score |", "|---|---|---|---|---|---|"]
    for task, r in sorted(results.items()):
        live = r["killed"] + r["survived"]
        score = f"{100 * r['killed'] / live:.0f} %" if live else "-"
        rows.append(f"| {task} | {live + r['equivalent']} | {r['killed']} | {r['survived']} | {r['equivalent']} | {score} |")
    return "\n".join(rows)


def _old_rows(text: str, tasks: set) -> tuple[list[str], list[str]]:
    """Table rows and survivor lines of tasks not re-measured (a --task run keeps the others)."""
    rows = [ln for ln in text.splitlines() if re.match(r"\| [\w.-]+ \| \d", ln) and ln.split("|")[1].strip() not in tasks]
    surv = [ln for ln in text.split("## Surviving mutants")[-1].split("## Equivalent mutants")[0].splitlines()
            if re.match(r"- `\w+` [\w.-]+ ", ln) and ln.split()[2] not in tasks]
    return rows, surv


def write_report(assignment: str, results: dict, limit: int | None = None, total: int | None = None,
                 partial: bool = False) -> Path:
    """Rewrite the numbers of tests/<id>/mutants.md; ``partial``: only the tasks in ``results`` were
    run, so the other tasks' rows and survivors are kept."""
    path = TESTS_DIR / assignment / "mutants.md"
    keep, text = "", ""
    if path.exists():
        text = path.read_text()
        if "## Equivalent mutants" in text:
            keep = text[text.index("## Equivalent mutants"):]
    old_rows, old_surv = _old_rows(text, set(results)) if partial and "## Surviving mutants" in text else ([], [])
    survivors = [f"- `{s['id']}` {t} · {s['cell']} line {s['line']}: {s['what']}"
                 for t, r in sorted(results.items()) for s in r["survivors"]]
    table = score_table(results).splitlines()
    table = table[:2] + sorted(table[2:] + old_rows, key=lambda ln: ln.split("|")[1].strip())
    survivors = sorted(survivors + old_surv, key=lambda ln: ln.split()[2])
    when = time.strftime("%Y-%m-%d")
    body = [f"# Mutation score of the {assignment} suite", "",
            f"Measured with `make mutants ID={assignment}` (course/authoring/mutants.py), last on {when}"
            + (f" for {', '.join(sorted(results))}" if partial else "")
            + (f", on the first {limit} of {total} mutants (--limit)" if limit and total and limit < total else "")
            + ".", "", "\n".join(table), "", "## Surviving mutants", "", *(survivors or ["(none)"]), ""]
    path.write_text("\n".join(body) + "\n" + (keep or "## Equivalent mutants\n\n(none yet)\n"))
    return path


MISTAKES_HEAD = "## Mistake-shaped mutants"


def write_mistakes(assignment: str, results: dict, partial: bool = False) -> Path:
    """Write (or replace) the mistake-shaped section of tests/<id>/mutants.md: one line per mutant with
    its verdict, and a score per task. Its lines are never read as the main table's. Sections after it
    (a "## ..." heading) are kept; ``partial`` (a --task run): so are the other tasks' rows and lines."""
    path = TESTS_DIR / assignment / "mutants.md"
    text = path.read_text() if path.exists() else "## Equivalent mutants\n\n(none yet)\n"
    text, _, old = text.partition(MISTAKES_HEAD)
    after = re.search(r"^## ", old, re.M)
    text, tail = text.rstrip() + "\n\n", ("\n" + old[after.start():]) if after else ""
    section = old[:after.start()] if after else old
    kept_rows = [ln for ln in section.splitlines() if partial and re.match(r"\| [\w.-]+ \| killed ", ln)
                 and ln.split("|")[1].strip() not in results]
    kept_lines = [ln for ln in section.splitlines() if partial and re.match(r"\* \w+ \w+ [\w.-]+: ", ln)
                  and ln.split()[3].rstrip(":") not in results]
    rows = ["| task | mistake-shaped mutants killed |", "|---|---|"] + kept_rows
    lines = list(kept_lines)
    for task, r in sorted(results.items()):
        live = r["killed"] + r["survived"]
        rows.append(f"| {task} | killed {r['killed']} of {live}" + (f" ({100 * r['killed'] / live:.0f} %)" if live else "")
                    + (f", {r['equivalent']} equivalent" if r["equivalent"] else "") + " |")
        lines += [f"* {m['status']} {m['id']} {task}: {m['what'][len(MISTAKE):]}" for m in r.get("all", [])]
    body = [MISTAKES_HEAD, "", f"Measured with `make mutants ID={assignment} MISTAKES=1` on {time.strftime('%Y-%m-%d')}: "
            "the mistakes students make rather than one-token slips (a copy not made, `view` for `reshape`, "
            "`equal` for `allclose`, `children` for `modules`, a scoping `with` removed with its body kept, a looser "
            "tolerance, the first argument returned early for the trivial case).", "",
            *(rows if results or kept_rows else ["(this topic's solutions hold none of these patterns)"]), "", *lines, ""]
    path.write_text(text + "\n".join(body) + tail)
    return path


def reclassify(assignment: str) -> list[str]:
    """Move survivors that have since been explained under "## Equivalent mutants" out of the survivors
    and into the equivalent column (no mutant is judged again). Returns the ids moved."""
    path = TESTS_DIR / assignment / "mutants.md"
    text = path.read_text()
    equiv = equivalents(assignment)
    head, rest = text.split("## Surviving mutants", 1)
    surv, tail = rest.split("## Equivalent mutants", 1)
    moved, keep = [], []
    for ln in surv.splitlines():
        m = re.match(r"- `(\w+)` ([\w.-]+) ", ln)
        if m and m.group(1) in equiv:
            moved.append((m.group(1), m.group(2)))
        else:
            keep.append(ln)
    rows = []
    for ln in head.splitlines():
        cells = [c.strip() for c in ln.split("|")[1:-1]]
        if len(cells) == 6 and cells[1].isdigit():
            n = sum(1 for _, t in moved if t == cells[0])
            killed, survived, eq = int(cells[2]), int(cells[3]) - n, int(cells[4]) + n
            live = killed + survived
            score = f"{100 * killed / live:.0f} %" if live else "-"
            ln = f"| {cells[0]} | {cells[1]} | {killed} | {survived} | {eq} | {score} |"
        rows.append(ln)
    keep = [ln for ln in keep if ln.strip()] or ["(none)"]
    path.write_text("\n".join(rows).rstrip() + "\n\n## Surviving mutants\n\n" + "\n".join(keep) + "\n\n"
                    + "## Equivalent mutants" + tail)
    return [i for i, _ in moved]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.mutants")
    ap.add_argument("assignment")
    ap.add_argument("--task")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--write", action="store_true", help="rewrite tests/<id>/mutants.md")
    ap.add_argument("--list", action="store_true", help="only list the mutants")
    ap.add_argument("--mistakes", action="store_true",
                    help="only the mistake-shaped mutants; --write records them in their own section")
    ap.add_argument("--reclassify", action="store_true",
                    help="count survivors explained since the run as equivalent (judges nothing)")
    args = ap.parse_args(argv)
    if args.reclassify:
        moved = reclassify(args.assignment)
        print(f"{len(moved)} survivor(s) now counted as equivalent: {', '.join(moved) or '-'}")
        return 0
    if args.list:
        for m in mutants(args.assignment, args.task):
            print(f"{m.id} {m.task:16} {m.cell}:{m.line} {m.what}")
        return 0
    results = run(args.assignment, args.task, args.timeout, args.limit, mistakes=args.mistakes)
    print()
    print(score_table(results))
    if args.write and args.mistakes:
        print(f"written: {write_mistakes(args.assignment, results, partial=bool(args.task))}")
    elif args.write:
        total = len(mutants(args.assignment, args.task))
        print(f"written: {write_report(args.assignment, results, args.limit, total, partial=bool(args.task))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
