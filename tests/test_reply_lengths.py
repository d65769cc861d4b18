"""A reply's lengths are the submission's to choose (red team 14). A submission owns its judge worker: it can relay
the worker's replies (on the protocol's descriptors) and send back the probe's real reply with any list shortened. ``zip`` stops at its shortest argument,
so a check that zips the judge's expected values with a reply list checks nothing past the reply's end: 15-01's
Clamp with a backward that ignores the incoming gradient, and LogCosh with tanh's NaN-prone formula, each passed
their ``jacobian_vs_reference`` check through the real worker once the reply's ``"grads"`` was ``[]`` (5/8 -> 6/8 and
5/9 -> 6/9 of the task's checks, seed 20261203). Driven in-process here: the real checks and probes, a student whose
replies are the real ones with ``grads`` emptied, as the forging worker sends them; and end to end, the judge's
plugin giving every hidden check's module ``expect.zip``, which fails a zip that a reply's own list would stop
early (43 such zips without a length check were found in the topics' checks)."""
import runpy

import pytest
import torch

from course import TESTS_DIR
from course.judge import expect
from course.judge.adapter import InProcessStudent
from course.judge.expect import CheckFailed, jacobian_vs_reference

WRONG_CLAMP = '''
class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return ((x >= ctx.lo) & (x <= ctx.hi)).to(x.dtype), None, None   # ignores grad_out
'''


class ShortGrads:
    """The real student, but every reply's ``grads`` list sent back empty (or cut to ``keep`` entries)."""

    def __init__(self, student, keep: int = 0):
        self.student, self.keep = student, keep

    def call(self, probe, /, **kwargs):
        r = self.student.call(probe, **kwargs)
        if isinstance(r, dict) and isinstance(r.get("grads"), list):
            r = {**r, "grads": r["grads"][:self.keep]}
        elif isinstance(r, list):
            r = r[:self.keep]
        expect.remember_reply(r)  # as the adapter does with every reply it reads
        return r


@pytest.fixture(scope="module")
def checks():
    ns = runpy.run_path(str(TESTS_DIR / "15-01" / "test_functions.py"))
    ns["test_clamp_matches_torch_including_kinks"].__globals__["zip"] = expect.zip  # as the judge's plugin
    # installs it in every hidden check's module (run_path returns a copy of the module's globals)
    return ns


@pytest.fixture(autouse=True)
def _forget_replies():
    yield
    expect.forget_replies()


ALPHA_ON_CLASS = '''
class ScaledMul(torch.autograd.Function):
    alpha = 1.0

    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_backward(x, y)
        ScaledMul.alpha = alpha          # on the class: the last forward's alpha wins
        return alpha * x * y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        gx = g * ScaledMul.alpha * y
        gy = g * ScaledMul.alpha * x
        while gx.dim() > x.dim():
            gx = gx.sum(0)
        while gy.dim() > y.dim():
            gy = gy.sum(0)
        for d in range(x.dim()):
            if x.shape[d] == 1 and gx.shape[d] != 1:
                gx = gx.sum(d, keepdim=True)
        for d in range(y.dim()):
            if y.shape[d] == 1 and gy.shape[d] != 1:
                gy = gy.sum(d, keepdim=True)
        return gx, gy, None
'''


@pytest.fixture(scope="module")
def alpha_on_class():
    ns = {"torch": torch}
    exec(ALPHA_ON_CLASS, ns)
    return InProcessStudent(ns, {"15-01": (TESTS_DIR / "15-01" / "probes.py").read_text()})


def test_an_empty_reply_list_does_not_pass_a_check_that_zips_it(checks, alpha_on_class):
    """15-01's two-nodes check zipped its cases with the reply: an empty reply passed it whole (through the real
    worker, a known-wrong ScaledMul with alpha on the class went from 20/21 to 21/21 of its task's checks)."""
    check = checks["test_scaled_mul_nodes_keep_their_own_alpha"]
    with pytest.raises(CheckFailed, match="alpha"):
        check(alpha_on_class, torch.Generator().manual_seed(5))
    with pytest.raises(CheckFailed, match="holds 0 entries where the check compares 2"):
        check(ShortGrads(alpha_on_class), torch.Generator().manual_seed(5))


def test_the_reply_zip_leaves_equal_lengths_slices_and_judge_lists_alone():
    reply = [[1, 2], (3, 4), {"a": [5, 6, 7]}]
    expect.remember_reply(reply)
    assert list(expect.zip("xy", reply[0])) == [("x", 1), ("y", 2)]
    assert list(expect.zip(reply[2]["a"], reply[2]["a"][1:])) == [(5, 6), (6, 7)]   # the reply is the longer
    assert list(expect.zip([1, 2, 3], [4])) == [(1, 4)]                              # no reply: the builtin
    # names for three gradients where the case has two (16-03's patch embedding without a bias): the reply is
    # as long as the judge's shortest sequence
    assert list(expect.zip(("images", "weight", "bias"), reply[0], ["gi", "gw"])) == \
        [("images", 1, "gi"), ("weight", 2, "gw")]
    with pytest.raises(CheckFailed):
        list(expect.zip([0, 1, 2], reply[1]))
    with pytest.raises(ValueError):
        list(expect.zip([0, 1, 2], reply[1], strict=True))
    expect.forget_replies()
    assert list(expect.zip([0, 1, 2], reply[1])) == [(0, 3), (1, 4)]


@pytest.fixture(scope="module")
def wrong_clamp():
    ns = {"torch": torch}
    exec(WRONG_CLAMP, ns)
    return InProcessStudent(ns, {"15-01": (TESTS_DIR / "15-01" / "probes.py").read_text()})


def test_the_wrong_backward_fails_as_it_is(checks, wrong_clamp):
    with pytest.raises(CheckFailed, match="gradient"):
        checks["test_clamp_matches_torch_including_kinks"](wrong_clamp, torch.Generator().manual_seed(5))


@pytest.mark.parametrize("keep", [0], ids=["empty"])
def test_a_short_gradient_list_does_not_pass_the_gradient_check(checks, wrong_clamp, keep):
    with pytest.raises(CheckFailed, match="one gradient entry per input"):
        checks["test_clamp_matches_torch_including_kinks"](ShortGrads(wrong_clamp, keep),
                                                           torch.Generator().manual_seed(5))


def test_a_short_list_fails_jacobian_vs_reference_wherever_it_is_used():
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    y = torch.randn(4, dtype=torch.float64, requires_grad=True)

    class Forger:
        def __init__(self, grads):
            self.grads = grads

        def call(self, probe, /, inputs, v, **kw):
            return {"out": (inputs[0] * inputs[1]).detach(), "grads": self.grads(inputs, v)}

    right = Forger(lambda i, v: [v * i[1], v * i[0]])
    jacobian_vs_reference(right, "p", [x, y], lambda a, b: a * b, "a * b", gen=torch.Generator().manual_seed(1))
    for short in ([], [torch.zeros(4, dtype=torch.float64)], ()):
        with pytest.raises(CheckFailed):
            jacobian_vs_reference(Forger(lambda i, v, s=short: s), "p", [x, y], lambda a, b: a * b, "a * b",
                                  gen=torch.Generator().manual_seed(1))
    with pytest.raises(CheckFailed):
        jacobian_vs_reference(Forger(lambda i, v: None), "p", [x, y], lambda a, b: a * b, "a * b",
                              gen=torch.Generator().manual_seed(1))


def _empty_two_nodes() -> str:
    """The worker's reply to the two-nodes probe replaced by ``[]`` on its way to the judge (a relay on the
    protocol's descriptors: tests/submissions/_hostile/_forge.py)."""
    from course import REPO_ROOT
    forge = runpy.run_path(str(REPO_ROOT / "tests" / "submissions" / "_hostile" / "_forge.py"))
    return forge["rewriting"]('probe == "two_nodes_vjp"', "[]")


def test_an_empty_reply_fails_through_the_real_worker_and_judge(tmp_path):
    """End to end: the known-wrong 15-01 example whose alpha lives on the class, its worker answering the
    two-nodes probe with ``[]`` (passed before: the judge's plugin now gives every hidden check's module
    ``expect.zip``)."""
    import nbformat
    from course.grading.class_run import submissions
    from course.judge.suite import run_suite
    nb = tmp_path / "alpha_on_class_forged.ipynb"
    submissions.write(submissions.SPECS_DIR / "15-01" / "held11_scaled_mul_alpha_on_class.py", nb)
    n = nbformat.read(str(nb), as_version=4)
    n.cells.append(nbformat.v4.new_code_cell(_empty_two_nodes()))
    nbformat.write(n, str(nb))
    res = run_suite("15-01", [str(nb)], sandbox="auto", seed=20261203, tasks=["scaled_mul"],
                    pytest_args=("-k", "nodes_keep_their_own_alpha"), timeout=600)
    assert not res.error, res.error
    checks = res.for_notebook(str(nb))
    assert len(checks) == 1 and checks[0].failed, checks
    assert "holds 0 entries where the check compares 2" in checks[0].message, checks[0].message


def test_remembered_replies_hold_little_of_the_judges_memory():
    """Remembering a reply's lists keeps the reply alive until its check ends; past ``HELD_BYTES`` of frames the
    oldest are let go (a check of many calls would otherwise hold every reply at once, outside every cap)."""
    import gc
    import weakref
    first = torch.zeros(4)
    ref = weakref.ref(first)
    old = [first]
    expect.remember_reply(old, expect.HELD_BYTES)
    del first
    newer = [torch.ones(2)]
    expect.remember_reply(newer, 1024)
    assert not expect.is_reply(old) and expect.is_reply(newer)
    del old
    gc.collect()
    assert ref() is None
