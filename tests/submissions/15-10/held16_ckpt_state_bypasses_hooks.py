"""Known-wrong CheckpointCallback (round 16): builds the checkpoint with trainer_state_dict(trainer)
instead of trainer.state_dict(). The text: "the checkpoint content is trainer.state_dict()"; the
Trainer's state_dict() also fires on_save_checkpoint, so callbacks that add to the checkpoint there
are missing from every step file, last.pt and best.pt."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    '''        ckpt = trainer.state_dict()
        atomic_save(ckpt''', '''        ckpt = trainer_state_dict(trainer)
        atomic_save(ckpt'''), (
    'atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))',
    'atomic_save(trainer_state_dict(trainer), os.path.join(self.dirpath, "best.pt"))'))}
EXPECT = {"checkpoint": "fail"}
