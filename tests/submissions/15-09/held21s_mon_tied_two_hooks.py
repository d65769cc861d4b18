"""GradMonitor registers one hook per (module, parameter) pair while it walks named_modules(), all adding into one
record per parameter: a parameter held by two modules (tied weights) gets two hooks, so each backward adds its
gradient twice and both modules report a norm that counts it twice, although the text asks for "the gradient
received" (a parameter held by several modules counts, once, for each of them)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """            for p in own:
                if id(p) not in seen:
                    seen.add(id(p))
                    self.handles.append(p.register_hook(recorder(p)))""",
    """            for p in own:
                seen.add(id(p))
                self.handles.append(p.register_hook(recorder(p)))"""))}
