"""Known-wrong Trainer.train_epoch (round 18): calls sampler.set_epoch only for an epoch started from
its first batch ("a resumed epoch: the sampler's loaded state already has it"). A sampler with set_epoch
but no state_dict (DistributedSampler-like) stays at its old epoch for an epoch resumed in the middle:
against "Call sampler.set_epoch(self.epoch) at the start of each epoch (when the loader's sampler has it)
before creating the epoch's iterator"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "        if hasattr(sampler, \"set_epoch\"):\n            sampler.set_epoch(self.epoch)\n"
    "        if self.batch_in_epoch == 0:\n            self.call(\"on_epoch_start\")\n",
    "        if self.batch_in_epoch == 0:\n            if hasattr(sampler, \"set_epoch\"):\n"
    "                sampler.set_epoch(self.epoch)\n            self.call(\"on_epoch_start\")\n"))}
EXPECT = {"trainer": "fail"}
