"""Prints about 300 MB, on stdout and stderr."""
EXPECT_TOTAL = 0
BASE = "release"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(
        "import sys\nfor _ in range(150):\n    print('x' * 1_000_000)\n    print('y' * 1_000_000, file=sys.stderr)"))
