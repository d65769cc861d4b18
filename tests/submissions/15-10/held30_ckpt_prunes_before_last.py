"""Wrong (held-out round 30): CheckpointCallback.on_batch_end writes step-XXXXXX.pt, then deletes the oldest
step files, and only then writes last.pt. Section 5: "write step-{global_step:06d}.pt and last.pt, then
delete the oldest step-*.pt files". Input: keep_last=1, steps 1 and 2, where the write of last.pt at step 2
fails (disk full, an exception out of atomic_save): step-000001.pt has already been deleted although the
save of step 2 did not complete (last.pt still says step 1, and no step-000001.pt is left to go with it).
When every write succeeds the folder is the same as the reference's."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("        atomic_save(ckpt, os.path.join(self.dirpath, \"last.pt\"))\n        found = []\n",
     "        found = []\n"),
    ("            os.remove(os.path.join(self.dirpath, name))\n        ### END SOLUTION\n\n    def on_validation_end",
     "            os.remove(os.path.join(self.dirpath, name))\n"
     "        atomic_save(ckpt, os.path.join(self.dirpath, \"last.pt\"))\n"
     "        ### END SOLUTION\n\n    def on_validation_end"))}
