"""Hidden checks for CondBranchyNet (exercise 2).

Expected outputs come from the judge's own BranchyNet with the same random weights.
"""
import importlib.util
import sys
from pathlib import Path

if "course_15_05_judge" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_15_05_judge", Path(__file__).with_name("judge.py"))
    sys.modules["course_15_05_judge"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_15_05_judge"])
J = sys.modules["course_15_05_judge"]

import pytest
import torch

from course.judge.expect import expect, expect_close

pytestmark = pytest.mark.task("cond_net")

_BOTH: dict = {}  # the call of test_eager_both_branches, read again by test_no_tensor_value_in_python


def _eager(student, **kwargs) -> list:
    return student.call("cond_eager", **kwargs)["outputs"]


def _outputs_match(got, want, names, what):
    expect(isinstance(got, list) and len(got) == len(want), f"{what}: expected {len(want)} outputs, got {J.show(got)}")
    for g, w, name in zip(got, want, names):
        expect(isinstance(g, torch.Tensor), f"{what} on {name}: expected logits of shape {tuple(w.shape)}, "
                                            f"got {J.show(g)}")
        expect_close(g, w, f"{what} on {name} (vs BranchyNet with the same weights)", atol=1e-5, rtol=1e-4)


def _both_branches(student, gen, course_seed):
    """CondBranchyNet on dark and bright batches: one call a student, read by two checks."""
    key = (id(student), course_seed)
    if key not in _BOTH:
        hidden = 20
        state = J.random_state("BranchyNet", hidden, gen)
        inputs = [J.dark(3, gen), J.bright(3, gen), J.bright(1, gen), J.dark(6, gen)]
        got = student.call("cond_eager", hidden=hidden, state=state, inputs=inputs)
        _BOTH[key] = hidden, state, inputs, got
    return _BOTH[key]


def test_eager_both_branches(student, gen, course_seed):
    """eager CondBranchyNet equals BranchyNet on dark and bright batches"""
    hidden, state, inputs, got = _both_branches(student, gen, course_seed)
    names = ["a dark batch", "a bright batch", "a bright batch of 1", "a dark batch of 6"]
    _outputs_match(got["outputs"], J.eager(J.P.build("BranchyNet", hidden, state), inputs), names,
                   f"CondBranchyNet(hidden={hidden}) with BranchyNet's weights")


@pytest.mark.task("cond_net", weight=0.1)  # its right answer is a constant (none): worth little
def test_no_tensor_value_in_python(student, gen, course_seed):
    """forward takes no Python `if` on a tensor value, in eager mode too: it never turns a tensor into a Python
    bool or number (bool(t), t.item(), float(t)); the branch is a graph operation (torch.cond or a formula)"""
    hidden, state, inputs, got = _both_branches(student, gen, course_seed)
    reads = got["python_values"]
    expect(not reads, f"CondBranchyNet(hidden={hidden}) called eagerly on dark and bright batches: its code read a "
                      f"tensor's value into Python: {'; '.join(reads[:3])}; the text rules out a Python `if` on a "
                      f"tensor value (in eager mode as well as under torch.export): decide with torch.cond(pred, "
                      f"...) or a branch-free formula such as torch.where(pred, 1.0 - x, x)")


def test_eager_threshold(student, gen):
    """the branch is taken only when the mean is strictly above 0.5 (a mean of exactly 0.5 is not inverted), the
    mean as BranchyNet's x.mean() takes it in the batch's own dtype (a float32 mean of exactly 0.5 whose exact value
    is 0.5 + 1e-8 is not inverted either)"""
    hidden = 12
    state = J.random_state("BranchyNet", hidden, gen)
    just_above = J.tie(2, gen)
    just_above[0, 0, 0, 0] += 0.01  # mean 0.5 + 0.01 / 1568
    inputs = [J.tie(2, gen), just_above]
    names = ["a batch with mean exactly 0.5", "a batch with mean just above 0.5"]
    # one pixel raised by 2**-16: the exact mean is 0.5 + 1e-8, but float32's sum of the batch (784, spacing
    # 2**-14 there) cannot hold it, so x.mean() in float32 is exactly 0.5 and BranchyNet does not invert; a mean
    # taken in float64 (x.double().mean()) says "above" and inverts (held-out round 23)
    rounded = J.tie(2, gen)
    rounded[0, 0, 0, 0] += 2.0 ** -16
    inputs.append(rounded)
    names.append("a float32 batch whose float32 mean is exactly 0.5 but whose exact mean is 0.5 + 1e-8 (one pixel "
                 "raised by 2**-16): BranchyNet's x.mean() > 0.5, taken in the batch's dtype, is False, and the "
                 "task asks for \"exactly what BranchyNet computes\"")
    got = _eager(student, hidden=hidden, state=state, inputs=inputs)
    _outputs_match(got, J.eager(J.P.build("BranchyNet", hidden, state), inputs), names,
                   f"CondBranchyNet(hidden={hidden}) with BranchyNet's weights")


def test_eager_any_batch(student, gen):
    """the same logits as BranchyNet on normalised pixels (below 0 and above 1), on a non-contiguous batch, on a
    batch mixing bright and dark images (the whole batch's mean decides), on flat rows of 784 pixels and on an empty
    batch (BranchyNet's flatten(1) gives (N, 784) from either, and (0, 10) logits for 0 images)"""
    hidden = 10
    state = J.random_state("BranchyNet", hidden, gen)
    inputs = [J.dark(3, gen) - 0.3,                   # pixels in [-0.3, 0.15]: kept as they are
              J.bright(3, gen) * 2.0 - 0.3,           # pixels in [0.8, 1.7]: inverted to 1 - x
              J.bright(2, gen) * 3.0 - 1.5,           # pixels in [0.15, 1.5], mean above 0.5
              J.bright(4, gen).transpose(2, 3),       # a transposed view: not contiguous
              torch.cat([J.bright(1, gen), J.dark(3, gen)]),  # mixed: the batch's mean decides, not one image's
              # held-out round 27: BranchyNet takes any batch whose rows flatten to 784 pixels, so flat rows of shape
              # (N, 784) (a mean over dims (0, 1, 2, 3) raises on them), and an empty batch: its mean is NaN, not
              # above 0.5, and flatten(1) keeps the 0 (x.reshape(len(x), -1) or x.view(x.size(0), -1) raise on it)
              J.bright(3, gen).flatten(1),
              torch.zeros(0, 1, 28, 28)]
    names = ["a dark batch shifted to pixels in [-0.3, 0.15]", "a bright batch scaled to pixels in [0.8, 1.7]",
             "a bright batch with pixels in [0.15, 1.5]", "a non-contiguous bright batch (x.transpose(2, 3))",
             "a batch of one bright image then three dark ones (batch mean below 0.5: not inverted)",
             "a bright batch of 3 flat rows of 784 pixels, shape (3, 784) (BranchyNet's flatten(1) leaves it as it "
             "is; the task: \"computes exactly what `BranchyNet` computes\")",
             "an empty batch, shape (0, 1, 28, 28) (BranchyNet gives logits of shape (0, 10): its mean is NaN, not "
             "above 0.5, and flatten(1) keeps the 0 rows; the task: \"computes exactly what `BranchyNet` "
             "computes\")"]
    got = _eager(student, hidden=hidden, state=state, inputs=inputs)
    _outputs_match(got, J.eager(J.P.build("BranchyNet", hidden, state), inputs), names,
                   f"CondBranchyNet(hidden={hidden}) with BranchyNet's weights")


def test_export_keeps_both_branches(student, gen):
    """torch.export of CondBranchyNet on one branch gives the right logits on the other branch"""
    hidden = 16
    state = J.random_state("BranchyNet", hidden, gen)
    ref = J.P.build("BranchyNet", hidden, state)
    for side, example in (("dark", J.dark(4, gen)), ("bright", J.bright(4, gen))):
        inputs = [J.bright(4, gen), J.dark(4, gen), J.tie(4, gen)]
        names = ["a bright batch", "a dark batch", "a batch with mean exactly 0.5"]
        what = f"torch.export.export(CondBranchyNet(hidden={hidden}), (a {side} batch of 4,)).module()"
        got = student.call("cond_export", hidden=hidden, state=state, example=example, inputs=inputs)
        expect(not J.is_error(got), f"{what}: export failed with {J.show(got)}")
        _outputs_match(got["outputs"], J.eager(ref, inputs), names, what)


def _train_case(student, gen):
    hidden = 14
    state = J.random_state("BranchyNet", hidden, gen)
    inputs = [J.dark(3, gen), J.bright(3, gen)]
    targets = [torch.randint(0, 10, (3,), generator=gen) for _ in inputs]
    got = student.call("cond_train", hidden=hidden, state=state, inputs=inputs, targets=targets)
    return hidden, state, inputs, targets, got


def test_trainable_like_branchynet(student, gen):
    """the logits carry autograd's graph: cross_entropy on them gives BranchyNet's gradients for fc1 and fc2, and for
    the input batch (no detach() of x)"""
    hidden, state, inputs, targets, got = _train_case(student, gen)
    ref = J.P.build("BranchyNet", hidden, state)
    expect(isinstance(got, list) and len(got) == len(inputs), f"CondBranchyNet on {len(inputs)} batches: got {J.show(got)}")
    for x, y, row, name in zip(inputs, targets, got, ["a dark batch of 3", "a bright batch of 3"]):
        what = (f"CondBranchyNet(hidden={hidden}) with BranchyNet's weights, called with autograd on, on {name}, "
                f"then cross_entropy(logits, targets).backward()")
        expect(not J.is_error(row), f"{what}: the call failed with {J.show(row)}")
        expect(row["graph"], f"{what}: the logits do not require grad (no autograd graph), so the module cannot be "
                             f"trained; BranchyNet's logits do: compute exactly what it computes, gradients included "
                             f"(no torch.no_grad() or detach() in forward)")
        with torch.enable_grad():
            source = x.clone().requires_grad_()
            loss = torch.nn.functional.cross_entropy(ref(source.clone()), y)
            names = [k for k, _ in ref.named_parameters()] + [J.P.INPUT_GRAD]
            want = dict(zip(names, torch.autograd.grad(loss, [p for _, p in ref.named_parameters()] + [source])))
        for k, w in want.items():
            g = row["grads"].get(k)
            hint = (" (BranchyNet's logits depend on its input through 1 - x: the gradient reaches the batch, as "
                    "a saliency map or an adversarial step needs; no detach() or .data on x)"
                    if k == J.P.INPUT_GRAD else "")
            expect(isinstance(g, torch.Tensor), f"{what}: the gradient of {k}: expected a tensor of shape "
                                                f"{tuple(w.shape)}, got {J.show(g)}{hint}")
            expect_close(g, w, f"{what}: the gradient of {k} (vs BranchyNet's){hint}", atol=1e-5, rtol=1e-4)


@pytest.mark.task("cond_net", weight=0.1)  # its right answer is a constant (unchanged): worth little
def test_input_left_unchanged(student, gen, course_seed):
    """forward leaves the caller's batch as it was (BranchyNet inverts a copy, never the input in place), with
    autograd on and under torch.no_grad(), on both branches"""
    hidden, state, inputs, eager = _both_branches(student, gen, course_seed)  # the no_grad calls, read again
    changed = eager.get("changed")
    expect(isinstance(changed, list) and len(changed) == len(inputs),
           f"CondBranchyNet(hidden={hidden}) under torch.no_grad() on {len(inputs)} batches: expected a report per "
           f"batch, got {J.show(changed)}")
    for flag, name in zip(changed, ["a dark batch of 3", "a bright batch of 3", "a bright batch of 1",
                                    "a dark batch of 6"]):
        expect(not flag, f"CondBranchyNet(hidden={hidden})(x) under torch.no_grad() on {name}: after the call x no "
                         f"longer holds the pixels it was given (expected them unchanged, got them overwritten, e.g. "
                         f"inverted in place); compute 1 - x as a new tensor")
    hidden, state, inputs, targets, got = _train_case(student, gen)
    expect(isinstance(got, list) and len(got) == len(inputs), f"CondBranchyNet on {len(inputs)} batches: got {J.show(got)}")
    for row, name in zip(got, ["a dark batch of 3", "a bright batch of 3"]):
        what = f"CondBranchyNet(hidden={hidden})(x) on {name}"
        expect(not J.is_error(row), f"{what}: the call failed with {J.show(row)}")
        expect(not row["changed"], f"{what}: after the call x no longer holds the pixels it was given (expected "
                                   f"them unchanged, got them overwritten, e.g. inverted in place); compute 1 - x as "
                                   f"a new tensor")


def test_nan_mean_is_not_above_half(student, gen):
    """a batch whose mean is NaN (one image holds a NaN pixel) is not "above 0.5": BranchyNet leaves it as it is,
    so the batch's other images keep their logits (a condition written as `mean <= 0.5` inverts it)"""
    hidden = 12
    state = J.random_state("BranchyNet", hidden, gen)
    x = J.bright(3, gen)
    x[0].view(-1)[int(torch.randint(0, 784, (1,), generator=gen))] = float("nan")
    got = _eager(student, hidden=hidden, state=state, inputs=[x])
    want = J.eager(J.P.build("BranchyNet", hidden, state), [x])[0]
    what = (f"CondBranchyNet(hidden={hidden}) with BranchyNet's weights on a bright batch of 3 whose first image "
            f"holds one NaN pixel (the batch mean is NaN, not above 0.5: BranchyNet does not invert it)")
    expect(isinstance(got, list) and len(got) == 1 and isinstance(got[0], torch.Tensor)
           and tuple(got[0].shape) == tuple(want.shape),
           f"{what}: expected logits of shape {tuple(want.shape)}, got {J.show(got[0] if got else got)}")
    expect_close(got[0][1:], want[1:], f"{what}: the logits of the two images without NaN", atol=1e-5, rtol=1e-4)


def test_float64_model(student, gen):
    """after .double(), the model runs on float64 batches and gives BranchyNet's float64 logits (forward keeps the
    input's dtype: no cast to float32), the mean and its comparison with 0.5 included"""
    hidden = 10
    state = J.random_state("BranchyNet", hidden, gen)
    # a mean 1e-9 above 0.5: above it in float64, exactly 0.5 once the pixels are rounded to float32 (their float32
    # spacing is about 6e-8), so a mean taken in float32 does not invert it while BranchyNet in float64 does
    inputs = [J.dark(2, gen).double(), J.bright(3, gen).double(), J.tie(2, gen).double() + 1e-9,
              J.tie(3, gen).double()]
    names = ["a float64 dark batch of 2", "a float64 bright batch of 3",
             "a float64 batch of 2 whose mean is 0.5 + 1e-9 (above 0.5 in float64, 0.5 in float32: inverted)",
             "a float64 batch of 3 whose mean is exactly 0.5 (not inverted)"]
    got = _eager(student, hidden=hidden, state=state, inputs=inputs, double=True)
    _outputs_match(got, J.eager(J.P.build("BranchyNet", hidden, state).double(), inputs), names,
                   f"CondBranchyNet(hidden={hidden}).double() with BranchyNet's weights")


def test_float16_model(student, gen):
    """after .half(), the model gives BranchyNet's float16 logits, also on a batch of 256 images whose pixels sum to
    more than float16's largest value (65504): the mean is taken as x.mean() takes it, not as x.sum() / x.numel()"""
    hidden = 8
    state = J.random_state("BranchyNet", hidden, gen)
    # 256 images of mean about 0.45 (pixels in [0.42, 0.48)): their sum, about 90000, is inf in float16, their mean
    # (accumulated in float32 by x.mean()) 0.45: not inverted; then the same images inverted (mean about 0.55)
    big = (0.42 + torch.rand(256, 1, 28, 28, generator=gen) * 0.06).half()
    inputs = [big, 1.0 - big, J.tie(2, gen).half()]
    names = ["a float16 batch of 256 images with mean about 0.45 (pixel sum about 90000, beyond float16's 65504)",
             "a float16 batch of 256 images with mean about 0.55", "a float16 batch of 2 with mean exactly 0.5"]
    got = _eager(student, hidden=hidden, state=state, inputs=inputs, half=True)
    want = J.eager(J.P.build("BranchyNet", hidden, state).half(), inputs)
    expect(isinstance(got, list) and len(got) == len(want), f"CondBranchyNet(hidden={hidden}).half(): expected "
                                                            f"{len(want)} outputs, got {J.show(got)}")
    for g, w, name in zip(got, want, names):
        what = f"CondBranchyNet(hidden={hidden}).half() with BranchyNet's weights on {name}"
        expect(isinstance(g, torch.Tensor), f"{what}: expected float16 logits of shape {tuple(w.shape)}, got {J.show(g)}")
        expect(g.dtype == torch.float16, f"{what}: expected float16 logits (BranchyNet's), got {g.dtype}")
        expect_close(g.float(), w.float(), f"{what} (vs BranchyNet with the same weights)", atol=2e-3, rtol=2e-3)


def test_other_device(student, gen):
    """moved with .to(device) to another device than the default one (a GPU in use), the model runs there on batches
    of that device and gives BranchyNet's logits on it: nothing in forward is made on the default device"""
    hidden = 6
    state = J.random_state("BranchyNet", hidden, gen)
    inputs = [J.dark(2, gen), J.bright(3, gen)]
    names = ["a dark batch of 2", "a bright batch of 3"]
    got = student.call("cond_device", hidden=hidden, state=state, inputs=inputs)
    want = J.eager(J.P.build("BranchyNet", hidden, state), inputs)
    outs = got["outputs"] if isinstance(got, dict) else got
    expect(isinstance(outs, list) and len(outs) == len(inputs),
           f"CondBranchyNet(hidden={hidden}).to(device) on {len(inputs)} batches: expected {len(inputs)} results, "
           f"got {J.show(outs)}")
    for row, w, name in zip(outs, want, names):
        what = (f"CondBranchyNet(hidden={hidden}).to(device) with BranchyNet's weights, called on {name} on that device "
                f"(a device other than the default one, as a GPU is)")
        expect(not J.is_error(row), f"{what}: the call failed with {J.show(row)}; BranchyNet (1.0 - x) runs on any "
                                    f"device: make every tensor forward creates on x's device (torch.ones_like(x), "
                                    f"device=x.device), or use Python numbers")
        expect(row["device"] == "meta", f"{what}: the logits came back on {row['device']}, expected the inputs' device")
        expect(row["shape"] == list(w.shape), f"{what}: expected logits of shape {tuple(w.shape)}, got {row['shape']}")
        if isinstance(row.get("value"), torch.Tensor):
            expect_close(row["value"], w, f"{what} (vs BranchyNet with the same weights)", atol=1e-5, rtol=1e-4)
