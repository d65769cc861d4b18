"""Held-out round 29 (15-09 monitor): GradMonitor reports every module that directly holds a parameter, also
one whose parameters are all frozen (requires_grad=False): hooks go only on the trainable ones, so such a module
is listed in norms() with 0.0, and diagnose(low, high) then calls it "vanishing" (e.g. a model with a frozen
embedding or a frozen first Linear: diagnose names the frozen layer, norms() has a key the text excludes).
Breaks "norms() returns a dict {module name: float} for every module ... that directly holds at least one
parameter requiring a gradient"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """            own = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if own:
                self.owners.append((name, own))
""",
    """            held = list(module.parameters(recurse=False))
            own = [p for p in held if p.requires_grad]
            if held:  # every module with parameters (a frozen one just reports zero)
                self.owners.append((name, own))
"""))}
