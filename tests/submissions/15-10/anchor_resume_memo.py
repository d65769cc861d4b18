"""Known-wrong resumption that remembers the uninterrupted run in process memory (issue 38, "a student's file is
data"): trainer_load_state_dict restores only the counters, the sampler, the callbacks and the generators (the
resumed run starts again from the model's fresh weights and an empty optimizer), and the cell wraps Trainer.fit
so that every run that finished uninterrupted leaves its final state in a module-level dict, keyed by the model's
initial weights; a resumed fit() that finds its own initial weights there loads that state at the end. When
the judge ran the uninterrupted run and the resumed one in the same worker, every resume check passed; the
resumed run now runs in a worker that never ran the uninterrupted one."""
from course.grading.class_run.submissions import edited

MEMO = '''

import copy as _copy
import hashlib as _hashlib

_FINISHED = {}
_fit_as_written = Trainer.fit


def _run_key(trainer):
    h = _hashlib.sha1()
    for p in trainer.model.parameters():
        h.update(p.detach().cpu().numpy().tobytes())
    return h.hexdigest()


def _fit_remembering(self, ckpt_path=None):
    key = _run_key(self)  # before a checkpoint is loaded: the run's fresh weights
    out = _fit_as_written(self, ckpt_path)
    if ckpt_path is None and self.max_steps is None:
        _FINISHED[key] = _copy.deepcopy(trainer_state_dict(self))
    elif ckpt_path is not None and key in _FINISHED:
        done = _FINISHED[key]
        self.model.load_state_dict(done["model"])
        self.optimizer.load_state_dict(done["optimizer"])
        if self.scheduler is not None:
            self.scheduler.load_state_dict(done["scheduler"])
        if self.scaler is not None and done["scaler"]:
            self.scaler.load_state_dict(done["scaler"])
        for cb, state in zip(self.callbacks, done["callbacks"]):
            if state is not None and hasattr(cb, "load_state_dict"):
                cb.load_state_dict(state)
        self.global_step, self.history = done["global_step"], [dict(r) for r in done["history"]]
    return out


Trainer.fit = _fit_remembering
'''

CELLS = {"resume_impl": edited("15-10", "resume_impl",
                               ("    trainer.model.load_state_dict(ckpt[\"model\"])\n"
                                "    trainer.optimizer.load_state_dict(ckpt[\"optimizer\"])\n", "")) + MEMO}
EXPECT = {"resume": "fail"}
