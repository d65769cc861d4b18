"""The skeleton's signatures, and the one generic check per task that the student kept them (judge side).

A task's release skeleton gives its ``def`` and ``class`` lines; the task's text and every hidden check call
them by those names, positions and defaults. ``skeleton(assignment)`` reads them from the release notebook
(the file students receive: one source of truth); ``tests/<id>/test_signatures.py`` asks the worker for the
submission's signatures (``probelib.signatures_of``) and ``check`` compares, clause by clause:

- each parameter of the skeleton is there, under its name, at its position (first parameters of methods,
  ``self`` / ``ctx``, by position only), and can still be passed the way the skeleton allows (by position,
  by keyword);
- each default of the skeleton is there and equal (``0`` and ``0.0`` are equal; a tuple and a list of equal
  items are equal; ``True`` and ``1`` are not);
- a parameter the student added comes after the skeleton's and has a default (``*args`` / ``**kwargs`` too);
- a parameter of the skeleton named with a leading ``_`` and given a default is its own plumbing (00-02's
  ``Value(data, _parents=(), _rule=None)``): free to change or leave out;
- a name the skeleton defines but the submission does not, or a method the skeleton lists but the class neither
  defines nor inherits, is not this check's business (a correct answer may be structured otherwise: 15-07's
  ``simulate`` without the ``CachingAllocatorModel`` class, 15-10's Trainer helpers); the checks that call it judge it;
- methods the framework calls by position only (an autograd Function's ``forward``, ``backward``,
  ``setup_context``, ``jvp``, ``vjp``, and dunders other than ``__init__``) are compared by how many
  positional arguments they take, not by their names.

Skipped: names starting with ``_`` (helpers of the skeleton, free to change) and decorated top-level
functions (``torch.library.custom_op``, ``triton.jit``: the decorator makes the object; its own checks read it).
"""
from __future__ import annotations

import ast
import functools
import inspect
import json

from ... import RELEASE_DIR, SOURCE_DIR
from ... import notebook as nbtools
from ..expect import fail

POK, KWO, VARP, VARK, POS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY,
                             inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD,
                             inspect.Parameter.POSITIONAL_ONLY)
_FRAMEWORK_CALLED = {"forward", "backward", "setup_context", "jvp", "vjp"}  # in autograd Functions
RULE = ("keep the skeleton's def line: its parameter names, their order and their defaults; a parameter you add "
        "goes after them, with a default")


# ------------------------------------------------------------------ the skeleton, from the release notebook
def _default(node: ast.expr):
    """A skeleton default as plain data (what probelib.plain_default gives for the same value)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch":
        return {"dtype": f"torch.{node.attr}"}
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return {"text": ast.unparse(node)}  # compared for presence only
    return _plain(value)


def _plain(v):
    if v is None or type(v) in (bool, int, float, str):
        return {"value": v}
    if type(v) in (tuple, list):
        return {"seq": [_plain(x) for x in v]}
    return {"text": repr(v)}


def _params(args: ast.arguments, drop_first: bool = False) -> list[dict]:
    out = []
    positional = args.posonlyargs + args.args
    firsts = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (a, d) in enumerate(zip(positional, firsts)):
        kind = POS if i < len(args.posonlyargs) else POK
        out.append({"name": a.arg, "kind": int(kind), "default": None if d is None else _default(d)})
    if args.vararg:
        out.append({"name": args.vararg.arg, "kind": int(VARP), "default": None})
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append({"name": a.arg, "kind": int(KWO), "default": None if d is None else _default(d)})
    if args.kwarg:
        out.append({"name": args.kwarg.arg, "kind": int(VARK), "default": None})
    return out[1:] if drop_first else out


def _decorators(node) -> set[str]:
    return {ast.unparse(d) for d in node.decorator_list}


def _entry(node) -> dict | None:
    """What to compare for one top-level statement of a skeleton cell, or None."""
    if node.name.startswith("_"):
        return None
    if isinstance(node, ast.FunctionDef):
        if node.decorator_list:
            return None
        return {"kind": "function", "signature": f"{node.name}({ast.unparse(node.args)})",
                "params": _params(node.args)}
    bases = [ast.unparse(b) for b in node.bases]
    function_class = any(b.split(".")[-1] == "Function" for b in bases)
    methods = {}
    for m in node.body:
        if not isinstance(m, ast.FunctionDef):
            continue
        dunder = m.name.startswith("__") and m.name.endswith("__")
        if m.name.startswith("_") and not dunder:
            continue
        decos = _decorators(m)
        by_position = (dunder and m.name != "__init__") or (function_class and m.name in _FRAMEWORK_CALLED)
        methods[m.name] = {"signature": f"{m.name}({ast.unparse(m.args)})",
                           "params": _params(m.args, drop_first="classmethod" in decos),
                           "by_position": by_position, "method": "staticmethod" not in decos}
    return {"kind": "class", "methods": methods} if methods else None


@functools.lru_cache(maxsize=None)
def _skeleton_json(assignment: str) -> str:
    tasks: dict[str, list[str]] = {}
    for gid, task in nbtools.tasks_of_cells(nbtools.read(nbtools.first_in(SOURCE_DIR / assignment))).items():
        tasks.setdefault(task, []).append(gid)
    release = {nbtools.nbgrader_meta(c).get("grade_id"): c.source
               for c in nbtools.read(nbtools.first_in(RELEASE_DIR / assignment)).cells}
    out: dict[str, dict] = {}
    for task, ids in tasks.items():
        objects = {}
        for gid in ids:
            for node in ast.parse(release.get(gid, "")).body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    entry = _entry(node)
                    if entry:
                        objects[node.name] = entry
        if objects:
            out[task] = objects
    return json.dumps(out)


def skeleton(assignment: str) -> dict[str, dict]:
    """{task: {name: entry}}: the skeleton's functions and classes each task's text hands out."""
    return json.loads(_skeleton_json(assignment))


def tasks(assignment: str) -> list[str]:
    return list(skeleton(assignment))


def request(assignment: str) -> dict[str, list | None]:
    """What the probe is asked for: {name: None (a function) or [method, ...] (a class)}."""
    out = {}
    for objects in skeleton(assignment).values():
        for name, entry in objects.items():
            out[name] = None if entry["kind"] == "function" else sorted(entry["methods"])
    return out


# ------------------------------------------------------------------ the comparison
def _same_default(want, got) -> bool:
    if not isinstance(want, dict) or not isinstance(got, dict):
        return False
    if "text" in want:
        return True  # a default the skeleton states as an expression: its presence is what is compared
    if "seq" in want:
        items = got.get("seq")
        return isinstance(items, list) and len(items) == len(want["seq"]) and all(
            _same_default(w, g) for w, g in zip(want["seq"], items, strict=True))
    if "dtype" in want:
        return got.get("dtype") == want["dtype"]
    if "value" not in want or "value" not in got:
        return False
    w, g = want["value"], got["value"]
    if type(w) in (int, float) and type(g) in (int, float):
        return w == g or (w != w and g != g)
    return type(w) is type(g) and w == g


def _show(default) -> str:
    if not isinstance(default, dict):
        return "?"
    if "seq" in default:
        return "(" + ", ".join(_show(x) for x in default["seq"]) + ")"
    if "dtype" in default:
        return str(default["dtype"])
    if "value" in default:
        return repr(default["value"])
    return str(default.get("text", "?"))[:80]


def _valid(params) -> bool:
    return isinstance(params, list) and len(params) <= 200 and all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and p.get("kind") in (0, 1, 2, 3, 4)
        for p in params)


def problems(want: dict, params: list, by_position: bool = False, method: bool = False) -> list[str]:
    """What differs between the skeleton's parameters and the submission's (empty: the same)."""
    want_p = want["params"]
    if by_position:
        need = sum(1 for p in want_p if p["kind"] in (POS, POK))
        lo = sum(1 for p in params if p["kind"] in (POS, POK) and p.get("default") is None)
        hi = sum(1 for p in params if p["kind"] in (POS, POK))
        star = any(p["kind"] == VARP for p in params)
        out = []
        if lo > need or (hi < need and not star):
            out.append(f"it takes {lo}{'' if lo == hi else f' to {hi}'}{' or more' if star else ''} positional "
                       f"arguments; the skeleton's takes {need}")
        if any(p["kind"] == VARP for p in want_p) and not star:
            out.append("it has no *args; the skeleton's has")
        return out
    out = []
    positional = [p for p in params if p["kind"] in (POS, POK)]
    by_name = {p["name"]: (i, p) for i, p in enumerate(params)}
    for i, w in enumerate(want_p):
        kind = w["kind"]
        if kind in (VARP, VARK):
            if not any(p["kind"] == kind for p in params):
                out.append(f"it has no {'*' if kind == VARP else '**'}{w['name']}; the skeleton's has")
            continue
        if method and i == 0 and kind in (POS, POK):  # self: by position
            if not positional:
                out.append(f"it takes no '{w['name']}' first")
            continue
        if w["name"].startswith("_") and w["default"] is not None:  # the skeleton's own plumbing: free
            continue
        if w["name"] not in by_name:
            out.append(f"it has no parameter '{w['name']}'")
            continue
        _, p = by_name[w["name"]]
        if kind == POK:
            if p["kind"] == KWO:
                out.append(f"'{w['name']}' is keyword-only; the skeleton lets it be passed by position")
                continue
            if p["kind"] == POS:
                out.append(f"'{w['name']}' is positional-only; the skeleton lets it be passed by keyword")
                continue
            at = next((j for j, q in enumerate(positional) if q is p), None)
            if at != i:
                out.append(f"'{w['name']}' is parameter {at + 1 if at is not None else '?'}; the skeleton has it "
                           f"as parameter {i + 1}")
                continue
        elif kind == KWO and p["kind"] not in (POK, KWO):
            out.append(f"'{w['name']}' cannot be passed by keyword; the skeleton's is keyword-only")
            continue
        if w["default"] is not None:
            if p.get("default") is None:
                out.append(f"'{w['name']}' has no default; the skeleton's is {_show(w['default'])}")
            elif not _same_default(w["default"], p["default"]):
                out.append(f"the default of '{w['name']}' is {_show(p['default'])}; the skeleton's is "
                           f"{_show(w['default'])}")
    names = {w["name"] for w in want_p}
    for j, p in enumerate(params):
        if method and j == 0 and p["kind"] in (POS, POK):
            continue
        if p["name"] not in names and p["kind"] in (POS, POK, KWO) and p.get("default") is None:
            out.append(f"it needs '{p['name']}', which the skeleton does not have (give it a default, or remove it)")
    return out


def check(assignment: str, task: str, reply) -> None:
    """Fail with one message naming every object of ``task`` whose signature differs from the skeleton's."""
    found = []
    for name, entry in skeleton(assignment)[task].items():
        got = reply.get(name) if isinstance(reply, dict) else None
        if not isinstance(got, dict):
            found.append(f"{name}: the worker sent no description of it")
            continue
        if got.get("missing"):
            continue  # not defined: the checks that call it say so (a correct answer may do without a helper class)
        if got.get("error"):
            found.append(f"{name}: its signature could not be read ({str(got['error'])[:200]})")
            continue
        if entry["kind"] == "function":
            if not _valid(got.get("params")):
                found.append(f"{name}: its signature could not be read (it is not a function?)")
                continue
            for p in problems(entry, got["params"]):
                found.append(f"{name}{_shown(got)} against the skeleton's {entry['signature']}: {p}")
            continue
        methods = got.get("methods")
        if not isinstance(methods, dict):
            found.append(f"{name}: it is not a class, or its methods could not be read")
            continue
        for m, want in entry["methods"].items():
            have = methods.get(m)
            if isinstance(have, dict) and have.get("missing"):
                continue  # a method the class leaves out (a restructured answer): the checks that call it judge that
            if not isinstance(have, dict):
                found.append(f"{name}.{m}: the worker sent no description of it")
                continue
            if have.get("error") or not _valid(have.get("params")):
                found.append(f"{name}.{m}: its signature could not be read ({str(have.get('error', ''))[:200]})")
                continue
            for p in problems(want, have["params"], by_position=want["by_position"], method=want["method"]):
                found.append(f"{name}.{m}{_shown(have)} against the skeleton's {want['signature']}: {p}")
    if found:
        fail("the signature differs from the skeleton's (" + RULE + "):\n  " + "\n  ".join(found[:8])
             + (f"\n  ... and {len(found) - 8} more" if len(found) > 8 else ""))


def _shown(got: dict) -> str:
    text = got.get("text")
    return f" (yours: {str(text)[:160]})" if isinstance(text, str) and text else ""
