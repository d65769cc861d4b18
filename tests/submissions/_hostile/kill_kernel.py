"""Ends the Python process as soon as the notebook starts."""
EXPECT_TOTAL = 0
BASE = "release"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell("import os\nos._exit(0)"))
