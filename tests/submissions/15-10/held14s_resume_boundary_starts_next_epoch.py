"""Known-wrong trainer_load_state_dict (round 14s, the loader drawing from the global generator resumed mid-epoch
only): a checkpoint written after an epoch's last batch (batch_in_epoch == len(loader)) is loaded as the start
of the next epoch (epoch + 1, batch_in_epoch 0). With make_loader's own generator nothing changes; with a
loader whose iterator draws from the global torch generator, the resumed run creates the next epoch's iterator
(one draw) and the pending snapshot then puts the generator back before that draw, so dropout differs from the
uninterrupted run. The text: fit(ckpt_path) runs the usual loop "starting from the restored epoch and
batch_in_epoch", and the pending restore comes right after the epoch's iterator is created."""
from course.grading.class_run.submissions import edited

EXPECT = {"resume": "fail"}
CELLS = {"resume_impl": edited(
    "15-10", "resume_impl",
    ("    trainer.batch_in_epoch = int(ckpt[\"batch_in_epoch\"])\n",
     "    trainer.batch_in_epoch = int(ckpt[\"batch_in_epoch\"])\n"
     "    if trainer.batch_in_epoch == len(trainer.train_loader):  # a finished epoch: start the next one\n"
     "        trainer.epoch += 1\n"
     "        trainer.batch_in_epoch = 0\n"))}
