"""Every sentence of every task's instructions is enforced by a named hidden check, every check
enforces a sentence, and the tables in tests/<id>/contract.md are current (course/authoring/contracts.py)."""
import pytest

from course.authoring import contracts
from course import notebook as nbtools
from course import assignments


@pytest.mark.parametrize("assignment", assignments())
def test_every_clause_has_a_check(assignment):
    found = contracts.problems(assignment)
    assert not found, (f"{assignment}: {len(found)} problem(s) in tests/{assignment}/contract.md "
                       f"(update with python -m course.authoring.contracts {assignment} --write):\n  " + "\n  ".join(found))


NB = '''
# %% [markdown]
# ## 1. Softplus
#
# Implement `softplus(x)`. It must match `F.softplus` (e.g. for `x = 1.5`). Return a tensor.
# * Never return `nan`.
# %%
import torch
# %% [solution] id=softplus_impl
def softplus(x):
    """Softplus of x.

    x: a float tensor.
    """
    ### BEGIN SOLUTION
    return x
    ### END SOLUTION
# %% [tests] id=softplus_tests points=1
### BEGIN HIDDEN TESTS
run_hidden("9-9", "softplus", globals())
### END HIDDEN TESTS
# %% [markdown] contract=softplus
# Also accept `float64`.
'''


def test_clauses_are_read_from_text_docstrings_and_marked_cells():
    got = contracts.contracts_of_cells(nbtools.from_percent(NB).cells, "9-9")
    assert got == {"softplus": ["Implement `softplus(x)`.", "It must match `F.softplus` (e.g. for `x = 1.5`).",
                                "Return a tensor.", "Never return `nan`.", "Also accept `float64`.",
                                "Softplus of x.", "x: a float tensor."]}


def test_each_kind_of_gap_is_reported():
    clauses = {"t": ["A.", "B.", "C."]}
    checks = {"t": {"test_a", "test_b", "test_orphan"}}
    table = {"t": [("A.", "test_a, test_b"), ("B.", "TODO"), ("Gone.", "test_a"), ("C.", "test_typo")],
             "other": []}
    found = "\n".join(contracts.compare(clauses, checks, table))
    assert "clause without a check: 'B.'" in found
    assert "stale row" in found and "'Gone.'" in found
    assert "'test_typo' is not a check of this task" in found
    assert "check test_orphan enforces no clause" in found
    assert "other: table for a task the notebook does not have" in found
    clauses["t"].append("D.")
    assert "clause without a row: 'D.'" in "\n".join(contracts.compare(clauses, checks, table))


def test_a_complete_table_passes_and_context_rows_need_a_reason():
    clauses, checks = {"t": ["A.", "B."]}, {"t": {"test_a"}}
    assert contracts.compare(clauses, checks, {"t": [("A.", "test_a"), ("B.", "(context: an example)")]}) == []
    assert contracts.compare(clauses, checks, {"t": [("A.", "test_a"), ("B.", "(context:)")]}) != []


def test_rendered_table_round_trips_with_pipes():
    path_clause = "Return `|x|` for each x."
    rows = "| clause | checks |\n|---|---|\n| Return `\\|x\\|` for each x. | test_abs |\n"
    import tempfile, pathlib
    with tempfile.TemporaryDirectory() as d:
        p = pathlib.Path(d) / "contract.md"
        p.write_text("## `t`\n\n" + rows)
        assert contracts.read_table(p) == {"t": [(path_clause, "test_abs")]}


def test_the_essential_sentence_names_exactly_the_marked_checks():
    """Issue 42: a task's 'Essential ...' sentence tells students which clauses may decide the whole task
    (COURSE_ESSENTIAL_POLICY=zero); its row must name exactly the checks marked @pytest.mark.essential."""
    clauses = {"t": ["Essential clauses: A and B.", "A.", "B."]}
    checks = {"t": {"test_a", "test_b"}}
    table = {"t": [("Essential clauses: A and B.", "test_a"), ("A.", "test_a"), ("B.", "test_b")]}
    found = "\n".join(contracts.compare(clauses, checks, table, {"t": {"test_a", "test_b"}}))
    assert "are not the checks marked @pytest.mark.essential (test_a, test_b)" in found
    table["t"][0] = ("Essential clauses: A and B.", "test_a, test_b")
    assert contracts.compare(clauses, checks, table, {"t": {"test_a", "test_b"}}) == []
    found = "\n".join(contracts.compare({"t": ["A.", "B."]}, checks, {"t": table["t"][1:]}, {"t": {"test_a"}}))
    assert "checks marked essential (test_a) but no sentence" in found
