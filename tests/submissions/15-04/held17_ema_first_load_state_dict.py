"""Held-out round 17: the first update copies the live model with
self.module.load_state_dict(model.state_dict()), which leaves out the buffers registered with
persistent=False; with average_buffers=True those are then averaged starting from their value at
construction. The text: "the first call copies `model`'s parameters and buffers" and "'Every buffer' means
all of `model.buffers()`, those registered with `persistent=False` included"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        with torch.no_grad():\n"
     "            for ema_p, p in zip(self.module.parameters(), model.parameters()):\n",
     "        if first:\n"
     "            self.module.load_state_dict(model.state_dict())\n"
     "            self.num_updates += 1\n"
     "            return\n"
     "        with torch.no_grad():\n"
     "            for ema_p, p in zip(self.module.parameters(), model.parameters()):\n"))}
