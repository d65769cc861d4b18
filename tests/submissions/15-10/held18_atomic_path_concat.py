"""Known-wrong atomic_save (round 18): names its temporary file `path + ".tmp"` (same folder, flushed,
fsync'ed, renamed, cleaned up on failure), which works for str paths only: given a pathlib.Path, as
torch.save(obj, path) accepts and as CheckpointCallback's os.fspath(dirpath) anticipates, it raises
TypeError and writes nothing: against the docstring "torch.save(obj, path) such that ..."."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    "    path = os.fspath(path)\n    folder = os.path.dirname(os.path.abspath(path))\n"
    "    fd, tmp = tempfile.mkstemp(dir=folder, prefix=\".tmp-\", suffix=\".pt\")\n",
    "    tmp = path + \".tmp\"  # same folder as path\n"
    "    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)\n"))}
EXPECT = {"checkpoint": "fail"}
