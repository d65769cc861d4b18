"""Held-out round 24: once a parameter has a momentum buffer, step() keeps updating it
(buf = mu * buf + (1 - tau) * d) whatever the group's momentum is now, and only uses it while momentum is not 0.
Breaks "while a group's momentum is set to 0 later, its buffers are neither used nor changed nor dropped, as in
torch.optim.SGD". Goes wrong on: momentum 0.9 for two steps, group["momentum"] = 0 for one step (the buffer
becomes (1 - tau) * d instead of staying), then 0.9 again: the next steps differ from torch.optim.SGD's, and
state[p]["momentum_buffer"] after the momentum-0 step differs from torch's."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if mu != 0:\n"
     "                    state = self.state[p]\n"
     "                    buf = state.get(\"momentum_buffer\")\n"
     "                    if buf is None:\n"
     "                        buf = d.clone()\n"
     "                        state[\"momentum_buffer\"] = buf\n"
     "                    else:\n"
     "                        buf.mul_(mu).add_(d, alpha=1 - tau)\n"
     "                    d = d.add(buf, alpha=mu) if group[\"nesterov\"] else buf\n",
     "                buf = self.state[p].get(\"momentum_buffer\") if p in self.state else None\n"
     "                if buf is not None:\n"
     "                    buf.mul_(mu).add_(d, alpha=1 - tau)\n"
     "                elif mu != 0:\n"
     "                    buf = d.clone()\n"
     "                    self.state[p][\"momentum_buffer\"] = buf\n"
     "                if mu != 0:\n"
     "                    d = d.add(buf, alpha=mu) if group[\"nesterov\"] else buf\n"))}
