"""Allocates memory until something stops it (100 MB at a time, touched so it is resident)."""
EXPECT_TOTAL = 0
BASE = "release"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(
        "_hog = []\nwhile True:\n    _hog.append(b'\\x01' * (100 * 2**20))"))
