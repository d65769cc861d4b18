"""Judge-side helpers for the 15-06 suite (not a test file; loaded by the tests).

Loads probes.py as a module so that the judge builds exactly the same
architectures as the probes, and generates random states for them.
"""
import importlib.util
import sys
from pathlib import Path

import torch
import torch.nn as nn

from hypothesis import HealthCheck, Phase, settings

_NAME = "course_15_06_probes_judge"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).with_name("probes.py"))
    _mod = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_mod)
    sys.modules[_NAME] = _mod
P = sys.modules[_NAME]

# hypothesis with the function-scoped `student` fixture: that fixture is a cached worker, safe to reuse.
# No shrinking: a failing submission is reported on its first failing example (shrinking would re-run the
# student's code dozens of times), and no example database on disk.
HYP = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
           phases=[Phase.explicit, Phase.generate], database=None, print_blob=False)


def hyp(n):
    return settings(max_examples=n, **HYP)


def notebook_fashionnet():
    """The FashionNet class as the notebook defines it (its cell, run in a namespace of its own)."""
    import nbformat
    from course import SOURCE_DIR
    nb = nbformat.read(next((SOURCE_DIR / "15-06").glob("*.ipynb")), as_version=4)
    import ast
    src = next(c.source for c in nb.cells if c.cell_type == "code" and "class FashionNet(" in c.source)
    cls = [n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "FashionNet"]
    ns = {"torch": torch, "nn": nn, "F": torch.nn.functional}
    exec(compile(ast.Module(body=cls, type_ignores=[]), "<15-06 FashionNet>", "exec"), ns)
    return ns["FashionNet"]


def randomize(model: nn.Module, gen: torch.Generator) -> dict:
    """Fill every parameter and BatchNorm statistic with random float64 values; return the state_dict."""
    with torch.no_grad():
        for name, t in model.state_dict().items():
            if not t.is_floating_point():
                continue
            if name.endswith("running_var"):
                t.copy_(torch.rand(t.shape, generator=gen, dtype=torch.float64) * 1.5 + 0.25)
            elif name.endswith("running_mean"):
                t.copy_(torch.randn(t.shape, generator=gen, dtype=torch.float64) * 0.5)
            elif name.endswith("bias"):
                t.copy_(torch.randn(t.shape, generator=gen, dtype=torch.float64) * 0.3)
            else:
                t.copy_(torch.randn(t.shape, generator=gen, dtype=torch.float64) * 0.4)
    return {k: v.clone() for k, v in model.state_dict().items()}


def fmt_desc(desc) -> str:
    parts = []
    for d in desc:
        if d["kind"] == "conv":
            s = f"Conv2d({d['cin']}->{d['cout']}, k={d['k']}, groups={d['groups']}, dilation={d['dilation']}, " \
                f"bias={d['bias']})"
            parts.append(s + (" -> BatchNorm2d" if d["bn"] else ""))
        elif d["kind"] == "skip":
            parts.append(f"[h=Conv2d({d['c']}->{d['c']}, bias={d['bias']}); BatchNorm2d(h) + h]")
        elif d["kind"] == "branch":
            parts.append(f"[a=Conv2d_a({d['c']}->{d['c']})(x); b=Conv2d_b({d['c']}->{d['c']})(x); "
                         f"BatchNorm2d(a) + b]")
        elif d["kind"] == "bn":
            parts.append("BatchNorm2d (after a ReLU)")
        else:
            parts.append("ReLU")
    return " -> ".join(parts)
