"""Flips nbgrader's cell flags: a test cell marked as a solution (its checks replaced by a print), a
solution cell marked as a graded test worth 100 points, a test cell unlocked and emptied, a solution
cell locked, a test cell marked ungraded, a test cell marked both graded and a solution, points that
are not a number, and a plain cell whose metadata claims to be graded without an id."""
EXPECT_TOTAL = 0
BASE = "release"


def mutate(nb):
    import nbformat

    def meta(c):
        return c.metadata.get("nbgrader", {})

    tests = [c for c in nb.cells if meta(c).get("grade") and not meta(c).get("solution")]
    answers = [c for c in nb.cells if meta(c).get("solution")]
    flips = [
        (tests, 0, {"solution": True}, "print('all good')"),
        (answers, 0, {"grade": True, "points": 100.0}, None),
        (tests, 1, {"locked": False}, "pass"),
        (answers, 1, {"locked": True}, None),
        (tests, 2, {"grade": False, "locked": False}, "pass"),
        (tests, 3, {"solution": True, "locked": False}, None),
        (tests, 4, {"points": "lots"}, None),
    ]
    for cells, i, flags, source in flips:
        if i < len(cells):
            cells[i].metadata["nbgrader"].update(flags)
            if source is not None:
                cells[i].source = source
    forged = nbformat.v4.new_code_cell("pass")
    forged.metadata["nbgrader"] = {"grade": True, "points": 50.0}
    nb.cells.insert(1, forged)
