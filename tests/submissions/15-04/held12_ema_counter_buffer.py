"""Held-out round 12: like AveragedModel's `n_averaged`, the update counter is kept as a buffer, but it is
registered on `self.module` itself, so the EMA module has a buffer (and a state_dict key) the model does not
have: `model.load_state_dict(ema.module.state_dict())` fails. Buffers are matched by name, so the update
itself works. The text: self.module is "an nn.Module of the same architecture", and its buffers equal those
of AveragedModel's copy."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        self.num_updates = 0\n",
     "        self.module.register_buffer(\"ema_num_updates\", torch.zeros((), dtype=torch.long))\n"),
    ("        first = self.num_updates == 0\n",
     "        first = int(self.module.ema_num_updates) == 0\n"
     "        live_buffers = dict(model.named_buffers())\n"),
    ("            for ema_b, b in zip(self.module.buffers(), model.buffers()):\n",
     "            for name, ema_b in self.module.named_buffers():\n"
     "                if name not in live_buffers:\n                    continue\n"
     "                b = live_buffers[name]\n"),
    ("        self.num_updates += 1\n",
     "            self.module.ema_num_updates += 1\n"))}
