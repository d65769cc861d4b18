"""Held-out round 29 (15-09 monitor): GradMonitor takes a module's own parameters from module._parameters.values()
(dropping the None entries of e.g. Linear(bias=False)) instead of parameters(recurse=False). _parameters is not
deduplicated: a module that holds one Parameter under two attribute names (self.w_in = self.w_out = p, tied
weights inside one module) lists it twice, so its norm counts that gradient twice: sqrt(2) times too large
(hooks are still registered once, so the sums themselves are right).
Breaks "The value is the L2 norm over all of that module's own such parameters of the gradient received": a
parameter is one of the module's parameters once."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "            own = [p for p in module.parameters(recurse=False) if p.requires_grad]\n",
    "            own = [p for p in module._parameters.values() if p is not None and p.requires_grad]\n"))}
