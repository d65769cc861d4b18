"""150 tiny outputs sharing one display id, then one 1 MiB update_display_data: nbclient copies the
update into all 150 (about 150 MiB of notebook from 1 MiB of kernel traffic)."""
EXPECT_TOTAL = 0
BASE = "release"


def mutate(nb):
    import nbformat
    nb.cells[2:2] = [
        nbformat.v4.new_code_cell("from IPython.display import display\n"
                                  "for _ in range(150):\n    display('x', display_id='bomb')"),
        nbformat.v4.new_code_cell("from IPython.display import update_display\n"
                                  "update_display({'text/plain': 'y' * 2**20}, display_id='bomb', raw=True)"),
    ]
