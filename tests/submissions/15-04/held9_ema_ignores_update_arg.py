"""Held-out round 9: EMA remembers the model it was built from and update() reads that one, ignoring its
argument; right when the same model is passed every time, wrong when update() is given another model of the
same architecture (a reloaded copy, a wrapper's inner module). The text says: "update(model): the first call
copies model's parameters and buffers into self.module; every later call sets each parameter to
decay * ema + (1 - decay) * live"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        self.module = copy.deepcopy(model)\n",
     "        self.module = copy.deepcopy(model)\n"
     "        self._live = model\n"),
    ("        first = self.num_updates == 0\n",
     "        first = self.num_updates == 0\n"
     "        model = self._live\n"))}
