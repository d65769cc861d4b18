"""The reference solution with a test cell deleted by accident: it is restored and graded."""
EXPECT_TOTAL = "full"
def mutate(nb):
    tests = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade") and
             not c.metadata["nbgrader"].get("solution")]
    nb.cells.remove(tests[-1])
