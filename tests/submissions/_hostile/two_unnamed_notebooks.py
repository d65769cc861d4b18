"""Two notebooks under names that match neither the assignment's notebook nor each other: the grader
cannot tell which one to grade, so the blank release is graded, with a note in the feedback that
names both files and one log line."""
EXPECT_TOTAL = 0
BASE = "reference"


def PLACE(folder, ctx):
    import os
    import shutil
    (nb,) = [n for n in os.listdir(folder) if n.endswith(".ipynb")]
    shutil.copy(os.path.join(folder, nb), os.path.join(folder, "homework-final.ipynb"))
    os.rename(os.path.join(folder, nb), os.path.join(folder, "untitled.ipynb"))
