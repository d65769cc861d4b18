"""A check that runs the judge's reference on values the worker reports must first make sure they are the values
the check set: 15-03's SkipMLP checks ran the functional reference on the parameters the worker sent back, and a
model whose parameters ignore ``copy_`` kept its all-zero weights, so a forward returning zeros passed 12 of the
task's 15 checks (6 without the trick; red team 8). Driven in-process: the checks and probes as the judge runs them."""
import runpy

import pytest
import torch

from course import TESTS_DIR
from course.judge.adapter import InProcessStudent
from course.judge.expect import CheckFailed

ZERO_MODEL = '''
class _Kept(nn.Parameter):
    def copy_(self, *args, **kwargs):  # the probe's randomising write does nothing
        return self


class SkipMLP(nn.Module):
    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        blocks, d = [], in_features
        for w in widths:
            b = nn.Module()
            if norm:
                b.norm = nn.LayerNorm(d)
            b.fc = nn.Linear(d, w)
            if d != w:
                b.proj = nn.Linear(d, w, bias=False)
            blocks.append(b)
            d = w
        self.blocks, self.head, self.classes = nn.ModuleList(blocks), nn.Linear(d, num_classes), num_classes
        for m in self.modules():
            for name, p in list(m._parameters.items()):
                if p is not None:
                    m._parameters[name] = _Kept(torch.zeros_like(p))

    def forward(self, x, drop=None):
        return torch.zeros(x.shape[0], self.classes, dtype=x.dtype) + 0 * sum(p.sum() for p in self.parameters())
'''


def test_parameters_that_ignore_the_checks_write_fail_the_forward_checks():
    checks = runpy.run_path(str(TESTS_DIR / "15-03" / "test_skipmlp.py"))
    ns = {"torch": torch, "nn": torch.nn}
    exec(ZERO_MODEL, ns)
    student = InProcessStudent(ns, {"15-03": (TESTS_DIR / "15-03" / "probes.py").read_text()})
    with pytest.raises(CheckFailed, match="does not hold the values"):
        checks["test_image_batches_are_flattened"](student, torch.Generator().manual_seed(2))


def test_a_model_left_all_zeros_cannot_hide_a_wrong_optimizer():
    """15-03's prepare_lazy: the judge replays SGD with momentum from the parameters the worker reported. Zeroed
    after the dry run, they have zero gradients, so Adam (or any optimizer) moved nothing and matched the replay:
    all 20 lazy checks passed (19 for Adam alone). The probe now starts training from values the judge draws too."""
    from course.grading.class_run.submissions import edited
    zeroing = ("    with torch.no_grad():\n        for p in model.parameters():\n            p.zero_()\n"
               "    return torch.optim.Adam(model.parameters(), lr=lr)")
    ns = {"torch": torch, "nn": torch.nn}
    exec(edited("15-03", "lazy_impl", ("    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)", zeroing)),
         ns)
    checks = runpy.run_path(str(TESTS_DIR / "15-03" / "test_lazy.py"))
    student = InProcessStudent(ns, {"15-03": (TESTS_DIR / "15-03" / "probes.py").read_text()})
    with pytest.raises(CheckFailed):
        checks["test_optimizer_is_sgd_with_momentum"](student, torch.Generator().manual_seed(3))
