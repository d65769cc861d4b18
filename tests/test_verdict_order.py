"""The verdicts' check order (tests/submissions/<id>/verdict_order.json): the checks that caught a known-wrong
example run first for it, and every hint names an example and a check that exist."""
import ast
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from course import TESTS_DIR
from course.grading.class_run import submissions
from course.judge.pytest_plugin import check_order_key, order_items
from tests.pipeline_run import graded_topics


def test_check_order_key_drops_notebook_and_seed_ids():
    assert check_order_key("tests/15-01/test_a.py::test_b[@3-~s1-float32]") == "test_a.py::test_b[float32]"
    assert check_order_key("/x/tests/16-04/test_z.py::C::test_y[@12]") == "test_z.py::C::test_y"
    assert check_order_key("test_a.py::test_b[@0]") == check_order_key("test_a.py::test_b[@7-~s2]")


def test_hinted_checks_run_first_for_their_notebook_only():
    def item(nb, nodeid):
        return SimpleNamespace(nb=nb, nodeid=nodeid)
    items = [item(nb, f"t/test_{m}.py::test_{c}[@{i}]") for i, nb in enumerate(["A", "B"])
             for m, c in (("m", "a"), ("m", "b"), ("n", "c"), ("n", "d"))]
    items.reverse()  # pytest's module-by-module order: the notebooks interleaved
    order_items(items, ["A", "B"], {"B": frozenset({"test_n.py::test_c", "test_m.py::test_b"})}, lambda it: it.nb)
    assert [(it.nb, it.nodeid.split("::")[1].split("[")[0]) for it in items] == [
        ("A", "test_d"), ("A", "test_c"), ("A", "test_b"), ("A", "test_a"),  # no hint: pytest's order kept
        ("B", "test_c"), ("B", "test_b"), ("B", "test_d"), ("B", "test_a")]


def _checks_of(assignment: str) -> set[str]:
    """file.py::name of every test function and test method in tests/<assignment>/ (parameters left out)."""
    out = set()
    for f in (TESTS_DIR / assignment).glob("test_*.py"):
        for node in ast.parse(f.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.add(f"{f.name}::{node.name}")
            elif isinstance(node, ast.ClassDef):
                out |= {f"{f.name}::{node.name}::{m.name}" for m in node.body if isinstance(m, ast.FunctionDef)}
    return out


@pytest.mark.parametrize("assignment", graded_topics())
def test_hints_name_examples_and_checks_that_exist(assignment):
    """A hint for a removed example or a renamed check would only cost time, silently: say which to re-record."""
    f = submissions.SPECS_DIR / assignment / "verdict_order.json"
    if not f.exists():
        pytest.skip(f"{assignment} has no verdict_order.json: its verdicts run every check in file order "
                    f"(make verdict-order ID={assignment} writes it)")
    hints = json.loads(f.read_text())
    examples = {f"{p.parent.name.strip('_')}-{p.stem}" for p in submissions.specs(assignment)} | \
        {f"{p.parent.name.strip('_')}-{p.stem}" for kind in ("hostile", "honest") for p in submissions.generic_specs(kind)}
    checks = _checks_of(assignment)
    stale = [f"{stem}: no such example" for stem in hints if stem not in examples]
    stale += [f"{stem}: {key}" for stem, keys in hints.items() for key in keys
              if re.sub(r"\[.*$", "", key) not in checks]
    assert not stale, (f"{f.relative_to(TESTS_DIR.parent)} names examples or checks that no longer exist; "
                       f"run `make verdict-order ID={assignment}`: {stale[:10]}")


@pytest.mark.parametrize("code", [3, 4])
def test_a_broken_session_is_an_error_not_a_verdict(code, monkeypatch):
    """A session that pytest ended with an internal or usage error may leave a results file with no check in
    it: that is the runner's failure, never "no check ran" for each notebook (which grades as zero)."""
    import subprocess
    from course.judge import suite

    def broken(cmd, **kw):
        out = next(a.split("=", 1)[1] for a in cmd if a.startswith("--results-json="))
        Path(out).write_text(json.dumps({"checks": [], "seed": 1}))
        return subprocess.CompletedProcess(cmd, code, "INTERNALERROR> unknown hook", "")
    monkeypatch.setattr(suite.subprocess, "run", broken)
    res = suite.run_suite("15-01", ["a.ipynb", "b.ipynb"], use_server=False)
    assert res.error and "unknown hook" in res.error and not res.checks, res
