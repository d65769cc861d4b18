"""The complete solution, saved by a browser under another name ("<notebook> (1).ipynb"). Autograde
grades it as the assignment's notebook, with one log line."""
BASE = "reference"


def PLACE(folder, ctx):
    import os
    (nb,) = [n for n in os.listdir(folder) if n.endswith(".ipynb")]
    os.rename(os.path.join(folder, nb), os.path.join(folder, nb[:-len(".ipynb")] + " (1).ipynb"))
