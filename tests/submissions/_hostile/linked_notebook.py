"""The submitted notebook is itself a symbolic link to the instructor's source notebook."""
EXPECT_TOTAL = 0
BASE = "release"

def PLACE(folder, ctx):
    import os
    nb = sorted(folder.glob("*.ipynb"))[0]
    src = sorted((ctx["root"] / "source" / ctx["assignment"]).glob("*.ipynb"))[0]
    os.remove(nb)
    os.symlink(src, nb)
