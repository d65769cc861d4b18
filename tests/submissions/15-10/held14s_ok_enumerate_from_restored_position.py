"""Correct, written differently (round 14s): train_epoch numbers the batches with
enumerate(iterator, start=self.batch_in_epoch) and sets batch_in_epoch = batch_idx + 1 (the position in the
epoch, also in a resumed pass and when that pass is interrupted again); trainer_load_state_dict restores the
counters last, after the sampler, the callbacks, the history (deep copies) and the RNGs."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "pass", "resume": "pass"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("            for batch in iterator:\n                batch_idx = self.batch_in_epoch\n",
     "            for batch_idx, batch in enumerate(iterator, start=self.batch_in_epoch):\n"),
    ("                self.batch_in_epoch += 1\n",
     "                self.batch_in_epoch = batch_idx + 1  # the position in the epoch, not in this pass\n")),
    "resume_impl": edited(
    "15-10", "resume_impl",
    ("    trainer.global_step = int(ckpt[\"global_step\"])\n"
     "    trainer.epoch = int(ckpt[\"epoch\"])\n"
     "    trainer.batch_in_epoch = int(ckpt[\"batch_in_epoch\"])\n", ""),
    ("    trainer.history = [dict(row) for row in ckpt.get(\"history\", [])]\n"
     "    restore_rng_state(ckpt[\"rng\"])\n",
     "    import copy\n"
     "    trainer.history = copy.deepcopy(list(ckpt.get(\"history\", [])))\n"
     "    restore_rng_state(ckpt[\"rng\"])\n"
     "    trainer.global_step, trainer.epoch, trainer.batch_in_epoch = (\n"
     "        int(ckpt[\"global_step\"]), int(ckpt[\"epoch\"]), int(ckpt[\"batch_in_epoch\"]))\n"))}
