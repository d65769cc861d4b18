"""GradMonitor finds each module's own parameters through module._parameters.values() (the dict behind
parameters(recurse=False)). That dict also holds the None that a module without a bias registers
(nn.Linear(4, 8, bias=False), nn.Conv2d(..., bias=False) before a batch norm): None.requires_grad raises
AttributeError in the constructor. Breaks "GradMonitor(model) registers a tensor hook on every parameter of model that
requires a gradient" (and "directly holds ... (parameters(recurse=False))") for any model with a bias-free layer."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """            own = [p for p in module.parameters(recurse=False) if p.requires_grad]
""",
    """            own = []
            for p in module._parameters.values():
                if p.requires_grad and all(p is not q for q in own):
                    own.append(p)
"""))}
