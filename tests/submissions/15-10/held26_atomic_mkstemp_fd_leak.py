"""Wrong (held-out round 26): atomic_save takes only the NAME from tempfile.mkstemp (`_, tmp = mkstemp(...)`) and
opens the file again with open(tmp, "wb"); the descriptor mkstemp opened is never closed. Every save leaks one
open file descriptor, so a run that checkpoints every step (CheckpointCallback(every_n_steps=1) writes two files
per step) dies with "OSError: Too many open files" after ~500 steps under the usual limit of 1024. Breaks the
section-5 promise that atomic_save is torch.save made safe (a save must not leave anything behind: "no temporary
files left" and nothing else either). Input: 1 atomic_save call: /proc/self/fd holds one more entry afterwards."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("    fd, tmp = tempfile.mkstemp(dir=folder, prefix=\".tmp-\", suffix=\".pt\")\n"
     "    try:\n"
     "        with os.fdopen(fd, \"wb\") as f:\n",
     "    _, tmp = tempfile.mkstemp(dir=folder, prefix=\".tmp-\", suffix=\".pt\")\n"
     "    try:\n"
     "        with open(tmp, \"wb\") as f:\n"))}
