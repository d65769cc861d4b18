"""Crashes the interpreter with a segmentation fault."""
EXPECT_TOTAL = 0
BASE = "release"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell("import ctypes\nctypes.string_at(0)"))
