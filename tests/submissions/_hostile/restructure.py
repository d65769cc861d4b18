"""Deletes, empties, re-types and duplicates test cells, inflates points and adds a fake graded cell."""
EXPECT_TOTAL = 0
BASE = "release"
def mutate(nb):
    import copy
    import nbformat
    tests = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade") and
             not c.metadata["nbgrader"].get("solution")]
    if len(tests) > 0:
        nb.cells.remove(tests[0])                                  # deleted
    if len(tests) > 1:
        tests[1].source = ""                                        # emptied
    if len(tests) > 2:
        tests[2].cell_type = "markdown"                             # re-typed
        tests[2].pop("outputs", None); tests[2].pop("execution_count", None)
    if len(tests) > 3:
        nb.cells.insert(nb.cells.index(tests[3]), copy.deepcopy(tests[3]))  # duplicated
        tests[3].source = "pass"
    for c in tests[4:]:
        c.metadata["nbgrader"]["points"] = 1000                     # inflated points
        c.source = "print('all good')"
    fake = nbformat.v4.new_code_cell("pass")
    fake.metadata["nbgrader"] = {"grade": True, "grade_id": "bonus", "locked": True, "points": 100.0,
                                 "schema_version": 3, "solution": False}
    nb.cells.append(fake)
