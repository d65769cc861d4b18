"""Held-out round 17: the blend is delegated to PyTorch: update() calls the function returned by
torch.optim.swa_utils.get_ema_multi_avg_fn(decay) on the lists of averaged and live parameters (and
floating-point buffers), and only the first-update copy and the integer buffers are written by hand. The values
match AveragedModel exactly, but the text says: "The point is to write the update yourself; the grader
compares your EMA with `AveragedModel`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        self.num_updates = 0\n",
     "        self.num_updates = 0\n"
     "        from torch.optim.swa_utils import get_ema_multi_avg_fn\n"
     "        self._blend = get_ema_multi_avg_fn(self.decay)   # PyTorch's own EMA step\n"),
    ("            for ema_p, p in zip(self.module.parameters(), model.parameters()):\n"
     "                if first:\n"
     "                    ema_p.copy_(p)\n"
     "                else:\n"
     "                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)\n",
     "            ema_ps, live_ps = list(self.module.parameters()), list(model.parameters())\n"
     "            if first:\n"
     "                for ema_p, p in zip(ema_ps, live_ps):\n"
     "                    ema_p.copy_(p)\n"
     "            elif ema_ps:\n"
     "                self._blend(ema_ps, [p.to(e.device) for e, p in zip(ema_ps, live_ps)], self.num_updates)\n"),
    ("                    ema_b.lerp_(b.to(ema_b.device), 1.0 - self.decay)\n",
     "                    self._blend([ema_b], [b.to(ema_b.device)], self.num_updates)\n"))}
