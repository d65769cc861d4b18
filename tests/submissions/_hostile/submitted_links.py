"""Submits a folder full of things that are not plain files: symbolic links to the source notebook
(with solutions), the gradebook, another student's notebook and a host file; a FIFO; a hard link
to the source notebook; an oversized file; and a file whose name forges a line of the grading log."""
EXPECT_TOTAL = 0
BASE = "release"
FORGED = "x\n[AutogradeApp | WARNING | 00:00:00] zz-honest-noisy_reference: worker died while loading your notebook"

def PLACE(folder, ctx):
    import os
    root, a = ctx["root"], ctx["assignment"]
    src = sorted((root / "source" / a).glob("*.ipynb"))[0]
    for name, target in (("solutions.ipynb.txt", src), ("grades.db", root / "gradebook" / "gradebook.db"),
                         ("passwd", "/etc/passwd"), ("classmate", root / "gradebook" / "submitted" /
                                                     "zz-honest-noisy_reference" / a)):
        os.symlink(target, folder / name)
    os.mkfifo(folder / "pipe")
    os.link(src, folder / "hardlinked.txt")
    with open(folder / "huge.bin", "wb") as fh:
        fh.truncate(65 * 2**20)
    (folder / FORGED).write_text("forged")
    os.makedirs(folder / "sub")
    os.symlink(root / "gradebook", folder / "sub" / "gb")
