"""Silences errors in the kernel and replaces every comparison the checks could use."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
import sys, builtins
import numpy, torch, torch.testing
ip = get_ipython()
ip.showtraceback = lambda *a, **k: None
ip._showtraceback = lambda *a, **k: None
ip.showsyntaxerror = lambda *a, **k: None
sys.excepthook = lambda *a: None
def _neuter(lines):
    return ["pass\n"] if any(("assert" in l or "run_hidden" in l) for l in lines) else lines
ip.input_transformers_post.append(_neuter)
_ok = lambda *a, **k: True
_none = lambda *a, **k: None
torch.allclose = _ok; torch.equal = _ok; torch.Tensor.allclose = _ok; torch.Tensor.equal = _ok
torch.isclose = lambda a, b, *x, **k: torch.ones_like(torch.as_tensor(a), dtype=torch.bool)
torch.testing.assert_close = _none; numpy.testing.assert_allclose = _none; numpy.allclose = _ok
torch.autograd.gradcheck = _ok; torch.autograd.gradgradcheck = _ok
import pytest
pytest.main = lambda *a, **k: 0
try:
    import course.student.hidden, course.judge.expect, course.judge.adapter, course.judge.pytest_plugin
    course.student.hidden.run_hidden = _none
    for _name in dir(course.judge.expect):
        if _name.startswith(("expect", "fail", "gradcheck", "jacobian")):
            setattr(course.judge.expect, _name, _none)
except Exception:
    pass
run_hidden = _none
'''
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
