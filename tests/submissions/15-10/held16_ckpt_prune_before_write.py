"""Known-wrong CheckpointCallback (round 16): prunes the old step files BEFORE writing the new one
("make room first"), then writes step-N.pt and last.pt. The folder ends up the same, but the text says
"write step-... and last.pt, then delete the oldest": if the new write fails (full disk, a kill), this
version has already deleted a good checkpoint, and with keep_last=1 the folder holds no step file at all
while the new one is being written."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    '''        self.last_saved_step = step
        ckpt = trainer.state_dict()
        atomic_save(ckpt, os.path.join(self.dirpath, f"step-{step:06d}.pt"))
        atomic_save(ckpt, os.path.join(self.dirpath, "last.pt"))
        found = []
        for name in os.listdir(self.dirpath):
            m = re.fullmatch(r"step-(\\d+)\\.pt", name)
            if m:
                found.append((int(m.group(1)), name))
        for _, name in sorted(found)[:-self.keep_last] if self.keep_last > 0 else sorted(found):
            os.remove(os.path.join(self.dirpath, name))''',
    '''        self.last_saved_step = step
        found = []
        for name in os.listdir(self.dirpath):
            m = re.fullmatch(r"step-(\\d+)\\.pt", name)
            if m:
                found.append((int(m.group(1)), name))
        room = max(self.keep_last - 1, 0)  # make room for the file written below
        for _, name in sorted(found)[:len(found) - room]:
            os.remove(os.path.join(self.dirpath, name))
        ckpt = trainer.state_dict()
        new = os.path.join(self.dirpath, f"step-{step:06d}.pt")
        atomic_save(ckpt, new)
        atomic_save(ckpt, os.path.join(self.dirpath, "last.pt"))
        if self.keep_last == 0:
            os.remove(new)'''))}
EXPECT = {"checkpoint": "fail"}
