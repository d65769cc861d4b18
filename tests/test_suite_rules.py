"""Rules every topic suite follows so that a verdict under several seeds means several inputs.

A check's inputs must come from the per-check seed (the `gen` or `course_seed` fixtures), never from the
session's seed or a module-scoped fixture: under --notebook-seeds those would give every seed the same inputs,
and "fails under 5 seeds" would be one seed counted five times.
"""
import re

import pytest

from course import TESTS_DIR
from course import assignments

FORBIDDEN = {
    r"_course_seed|state\([^)]*\)\.seed|STATE\]|config\.getoption\(\s*[\"']--seed": "reads the session's seed instead of the check's",
    r"scope\s*=\s*[\"'](module|session|package|class)[\"']": "a fixture shared across checks (and seeds)",
}


@pytest.mark.parametrize("assignment", assignments())
def test_inputs_follow_the_check_seed(assignment):
    problems = []
    for path in sorted((TESTS_DIR / assignment).glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for pattern, why in FORBIDDEN.items():
                if re.search(pattern, line) and "# no inputs:" not in line:  # a shared fixture that draws nothing
                    problems.append(f"{path.name}:{n}: {why}: {line.strip()}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("assignment", assignments())
def test_probes_need_no_assert_or_docstring(assignment):
    """The worker receives the probes compiled with optimize=2 (course.judge.adapter.compile_probes), which
    drops docstrings and assert statements: a probe must not depend on either."""
    import ast
    tree = ast.parse((TESTS_DIR / assignment / "probes.py").read_text())
    problems = [f"probes.py:{n.lineno}: assert (removed when the probes are compiled)"
                for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    problems += [f"probes.py:{n.lineno}: reads __doc__ (docstrings are removed)"
                 for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "__doc__"]
    assert not problems, "\n".join(problems)
