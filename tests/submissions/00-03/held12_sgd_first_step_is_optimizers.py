"""Round 12 (held out): "the first step" read as the optimizer's first step, not the parameter's: a
parameter whose .grad is None at step 1 and set later starts from a zero buffer, so its first buffer is
(1 - dampening) * d instead of a copy of d. torch.optim.SGD starts each parameter's buffer at its own first
step; with dampening != 0 the parameter goes elsewhere. A loaded state_dict keeps working (the counter
only matters while no buffer exists)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl", (
    "        for group in self.param_groups:\n            mu, tau",
    "        first = not getattr(self, '_stepped', False)\n        self._stepped = True\n"
    "        for group in self.param_groups:\n            mu, tau"), (
    "                    if buf is None:\n",
    "                    if buf is None and not first:\n"
    "                        buf = torch.zeros_like(p)\n"
    "                        state['momentum_buffer'] = buf\n"
    "                    if buf is None:\n"))}
