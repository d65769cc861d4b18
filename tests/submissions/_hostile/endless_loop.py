"""Loops forever in a top-level cell."""
EXPECT_TOTAL = 0
BASE = "release"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell("while True:\n    pass"))
