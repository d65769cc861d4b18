"""Hidden checks for find_nan_origin (15-09, judge side)."""
import re
import runpy
import warnings
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect, expect_close, expect_raises

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
pytestmark = pytest.mark.task("anomaly")


def judge_origin(name, x, pad=0):
    """The judge's own answer: anomaly mode in this process, on the same loss source."""
    loss_fn = PROBES["make_loss"](name, pad)
    leaf = x.detach().clone().requires_grad_(True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():
                loss_fn(leaf).backward()
            return None
        except RuntimeError as err:
            op = re.search(r"Function '([^']+)' returned nan values", str(err)).group(1)
    lines = []
    for w in caught:
        text = str(w.message)
        if text.startswith(f"Error detected in {op}."):
            lines = [int(n) for f, n in re.findall(r'File "(.*)", line (\d+)', text)
                     if f == PROBES["loss_file"](name)]
    return {"op": op, "lineno": lines[-1]}


def judge_raise_origin(name, x):
    """Where the loss's own exception is raised ([file, line] of its innermost frame), judged in this process."""
    leaf = x.detach().clone().requires_grad_(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with torch.autograd.detect_anomaly():
                PROBES["make_loss"](name)(leaf).backward()
        except Exception as err:
            return PROBES["innermost_frame"](err)
    raise AssertionError(f"judge: the {name} loss raises nothing")


def source_line(name, lineno, pad=0):
    lines = PROBES["loss_source"](name, pad).splitlines()
    return lines[lineno - 1].strip() if isinstance(lineno, int) and 0 < lineno <= len(lines) else "?"


def padding(gen):
    """How many comment lines the loss file starts with, drawn per student: the line to report moves."""
    return int(torch.randint(0, 41, (1,), generator=gen))


def nan_input(name, gen):
    x = torch.rand(5, generator=gen, dtype=torch.float64) + 0.5
    if name in ("sqrt", "warns"):
        x[int(torch.randint(0, 5, (1,), generator=gen))] = -1.0
    elif name in ("masked_log", "two_logs"):
        x[int(torch.randint(0, 5, (1,), generator=gen))] = 0.0
    elif name == "helper":
        x[int(torch.randint(0, 5, (1,), generator=gen))] = -0.5  # exp(x) - 1 < 0
    elif name == "normalize":
        x = torch.zeros(5, dtype=torch.float64)
    elif name in ("custom_fn", "masked_sqrt"):
        x[int(torch.randint(0, 5, (1,), generator=gen))] = -0.5
    elif name == "copy_slices":
        x[int(torch.randint(0, 2, (1,), generator=gen))] = 0.0  # a zero in y[:2], whose sqrt_ is taken in place
    return x


def check_report(r, want, name, x, pad=0):
    call = (f"find_nan_origin(loss, x) for the loss below (in the file {PROBES['loss_file'](name)}) and "
            f"x = {[round(v, 3) for v in x.tolist()]}")
    src = PROBES["loss_source"](name, pad)
    expect(r["error"] is None, f"{call} raised {r['error'] and r['error']['type']}: "
                               f"{r['error'] and r['error']['message']}\n{src}")
    if "filters" in r:
        before, after = r["filters"]
        expect(before == after, f"{call} left the caller's warning filters changed ({before} before the call, {after} "
                                f"after it): set filters inside `with warnings.catch_warnings():`, which restores them\n{src}")
    got = r["returned"]
    expect(isinstance(got, dict), f"{call} returned {got!r}, expected a dict with 'op' and 'lineno'\n{src}")
    expect(got.get("op") == want["op"], f"{call}: 'op' is {got.get('op')!r}, expected {want['op']!r} (the backward "
                                        f"node anomaly mode names)\n{src}")
    expect(got.get("lineno") == want["lineno"] and type(got.get("lineno")) is int,
           f"{call}: 'lineno' is {got.get('lineno')!r} ({source_line(name, got.get('lineno'), pad)!r}), expected "
           f"{want['lineno']} ({source_line(name, want['lineno'], pad)!r}): the innermost forward frame in the file "
           f"that defines loss_fn\n{src}")


@pytest.mark.parametrize("name", ["sqrt", "masked_log", "two_logs", "std"])
def test_reports_op_and_line(student, gen, name):
    """find_nan_origin names the backward node that returned NaN and the forward line that created it"""
    x, pad = nan_input(name, gen), padding(gen)
    want = judge_origin(name, x, pad)
    assert want is not None  # the judge's own case must produce a NaN
    check_report(student.call("nan_origin", name=name, x=x, pad=pad), want, name, x, pad)


def test_custom_function_node(student, gen):
    """find_nan_origin names a custom autograd.Function's node as anomaly mode does ('Clamp01Backward', no number)"""
    x, pad = nan_input("custom_fn", gen), padding(gen)
    want = judge_origin("custom_fn", x, pad)
    assert want is not None and want["op"] == "Clamp01Backward"
    check_report(student.call("nan_origin", name="custom_fn", x=x, pad=pad), want, "custom_fn", x, pad)


# a pattern for node names (\w+, or ...Backward\d*) misses 'torch::autograd::CopySlices', the node of an in-place op
# on a view, and lets anomaly mode's NaN report propagate as if it were another error
def test_node_named_as_in_the_error(student, gen):
    """find_nan_origin gives the node's name as the error spells it, also a namespaced one without "Backward"
    ('torch::autograd::CopySlices', the node of an in-place op on a view)"""
    x, pad = nan_input("copy_slices", gen), padding(gen)
    want = judge_origin("copy_slices", x, pad)
    assert want is not None and want["op"] == "torch::autograd::CopySlices"
    check_report(student.call("nan_origin", name="copy_slices", x=x, pad=pad), want, "copy_slices", x, pad)


# param_branch: the NaN comes from the backward of a penalty on a parameter the loss captures (w), a branch that does
# not lead to x: backward restricted to x (loss.backward(inputs=[x]), torch.autograd.grad(loss, x)) never runs it
def test_nan_that_a_later_node_masks(student, gen):
    """find_nan_origin reports a NaN that a later backward node masks (x.grad stays finite), running loss_fn once, and
    one in a branch that only a parameter of loss_fn reaches (x.grad stays finite too)"""
    x, pad = nan_input("masked_sqrt", gen), padding(gen)
    want = judge_origin("masked_sqrt", x, pad)
    assert want is not None
    r = student.call("nan_origin", name="masked_sqrt", x=x, pad=pad)
    check_report(r, want, "masked_sqrt", x, pad)
    expect(r["loss_calls"] == 1, f"find_nan_origin(loss, x) called loss_fn {r['loss_calls']} times: the text runs "
                                 f"loss = loss_fn(x) and loss.backward() once, with anomaly detection on")
    x, pad = nan_input("param_branch", gen), padding(gen)
    want = judge_origin("param_branch", x, pad)
    assert want is not None and want["op"] == "LogBackward0"
    r = student.call("nan_origin", name="param_branch", x=x, pad=pad)
    if r["error"] is None and r["returned"] is None:
        r["error"] = {"type": "nothing", "message": (
            "it returned None: the NaN is made by the backward of the penalty on w, a leaf the loss captures, in a "
            "branch that does not lead to x; loss.backward() (the text's) runs it, a backward restricted to x "
            "(loss.backward(inputs=[x]), torch.autograd.grad(loss, x)) does not")}
    check_report(r, want, "param_branch", x, pad)


def test_innermost_frame_through_a_helper(student, gen):
    """find_nan_origin gives the line inside a helper function of the loss file (the innermost frame there)"""
    x, pad = nan_input("helper", gen), padding(gen)
    check_report(student.call("nan_origin", name="helper", x=x, pad=pad), judge_origin("helper", x, pad), "helper",
                 x, pad)


# the loss file is named functional.py, as torch's own torch/nn/functional.py (where F.normalize makes the node):
# matching frames by base name instead of by loss_fn.__code__.co_filename reports torch's line
def test_frame_of_loss_file_not_of_torch(student, gen):
    """find_nan_origin gives the line in the loss's file when the NaN node was created inside torch's own Python code"""
    x, pad = nan_input("normalize", gen), padding(gen)
    check_report(student.call("nan_origin", name="normalize", x=x, pad=pad), judge_origin("normalize", x, pad),
                 "normalize", x, pad)


def test_works_when_warnings_are_ignored(student, gen):
    """find_nan_origin still finds the line after warnings.filterwarnings('ignore') (a common notebook habit)"""
    x, pad = nan_input("masked_log", gen), padding(gen)
    r = student.call("nan_origin_quiet", name="masked_log", x=x, pad=pad)
    r["escaped_warnings"], r["anomaly_on_after"] = 0, False
    check_report(r, judge_origin("masked_log", x, pad), "masked_log", x, pad)


def judge_grad(name, x):
    """d loss / d x of a loss whose backward completes, computed here."""
    leaf = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(PROBES["make_loss"](name)(leaf), leaf)
    return g


# torch.autograd.grad(loss, x) (or backward on a detached copy of x) reports the same NaNs but leaves x.grad alone:
# the text runs loss.backward() once, which adds the gradient to x.grad (to what an earlier backward left there too)
def test_none_when_backward_succeeds(student, gen):
    """find_nan_origin returns None when backward raises nothing, having run loss.backward() once (x.grad gains the
    gradient), and a NaN case still gets a report"""
    x = torch.randn(6, generator=gen, dtype=torch.float64)
    for name, inp, stale in [("fine", x, None), ("masked_log", x.abs() + 0.1, torch.rand(6, generator=gen,
                                                                                         dtype=torch.float64))]:
        assert judge_origin(name, inp) is None
        r = student.call("nan_origin", name=name, x=inp, stale=stale)
        expect(r["error"] is None and r["returned"] is None,
               f"find_nan_origin(loss, x) for a loss whose backward has no NaN returned {r['returned']!r} "
               f"(error: {r['error']}), expected None\n{PROBES['LOSS_SOURCES'][name]}")
        want = judge_grad(name, inp) + (0 if stale is None else stale)
        held = "" if stale is None else " (x held a .grad from an earlier backward, which backward adds to)"
        expect(r["x_grad"] is not None, f"x.grad is None after find_nan_origin(loss, x) returned None{held}: the "
                                        f"clause 'runs loss = loss_fn(x) and loss.backward() once' fills x.grad "
                                        f"(torch.autograd.grad, or backward on a copy of x, does not)"
                                        f"\n{PROBES['LOSS_SOURCES'][name]}")
        expect_close(r["x_grad"], want, f"x.grad after find_nan_origin(loss, x) returned None{held}: one "
                                        f"loss.backward() adds d loss / d x to it\n{PROBES['LOSS_SOURCES'][name]}",
                     atol=1e-12, rtol=1e-10)
    # the same function must still report a real NaN: a constant None does not pass
    xn, pad = nan_input("sqrt", gen), padding(gen)
    check_report(student.call("nan_origin", name="sqrt", x=xn, pad=pad), judge_origin("sqrt", xn, pad), "sqrt", xn,
                 pad)


# a filter of one's own for anomaly mode's message only (filterwarnings("always", message="Error detected in"))
# works under "ignore"; under "error", the "Anomaly Detection has been enabled" warning detect_anomaly issues
# on entry becomes an exception that escapes
def test_works_when_warnings_are_errors(student, gen):
    """find_nan_origin still finds the line under warnings.filterwarnings('error') (every warning an exception, as
    with pytest -W error)"""
    x, pad = nan_input("sqrt", gen), padding(gen)
    r = student.call("nan_origin_quiet", name="sqrt", x=x, pad=pad, action="error")
    if r["error"] is not None:
        r["error"] = {**r["error"], "message": r["error"]["message"] + " (the caller had turned every warning into "
                      "an exception with warnings.filterwarnings('error'): 'it works whatever warning filters are "
                      "active', so override them all inside warnings.catch_warnings(record=True), e.g. with "
                      "warnings.simplefilter('always'))"}
    check_report(r, judge_origin("sqrt", x, pad), "sqrt", x, pad)


@pytest.mark.task("anomaly", weight=0.1)  # its right answer is a constant ("raised X"): worth little
@pytest.mark.parametrize("name,exc,match", [("inplace", "RuntimeError", "inplace"),
                                            ("value_error", "ValueError", "bad batch"),
                                            # its message mentions nan: only anomaly mode's report is caught
                                            ("multinomial", "RuntimeError", "probability tensor")])
def test_other_errors_propagate(student, gen, name, exc, match):
    """find_nan_origin lets an exception that is not anomaly mode's NaN report propagate unchanged"""
    x = torch.randn(4, generator=gen, dtype=torch.float64)
    r = student.call("nan_origin", name=name, x=x)
    res = {"raised": r["error"] is not None, "type": (r["error"] or {}).get("type", ""),
           "message": (r["error"] or {}).get("message", ""), "mro": []}
    note = (" (torch.multinomial's 'probability tensor contains either `inf`, `nan` or element < 0': it mentions "
            "nan, but it is not anomaly mode's report of a backward function)" if name == "multinomial" else "")
    what = (f"find_nan_origin(loss, x) for a loss whose {'backward' if name == 'inplace' else 'forward'} raises "
            f"{exc}{note}:\n{PROBES['LOSS_SOURCES'][name]}")
    expect_raises(res, exc, what, match=match)
    # "unchanged": the loss's own exception, not a new one of the same type and message raised in its place
    want = judge_raise_origin(name, x)
    got = r["error"].get("origin") or ["?", 0]
    same = got == want if want[0] == PROBES["loss_file"](name) else Path(got[0]).name == Path(want[0]).name
    expect(same, f"{what}\nthe exception that came out was raised at {got[0]}, line {got[1]}, not where the loss's "
                 f"own {exc} was ({want[0]}, line {want[1]}): 'propagates unchanged' means that exception itself "
                 f"(a bare `raise`), not a new one with the same type and message")


def test_anomaly_off_and_no_warnings_escape(student, gen):
    """Anomaly detection is off after find_nan_origin returns or raises, and no warning escapes from it (one
    that loss_fn issues in its forward pass included)"""
    xn, pad = nan_input("sqrt", gen), padding(gen)
    x = torch.randn(4, generator=gen, dtype=torch.float64)
    for name, inp, what in [("sqrt", xn, "reported a NaN"), ("fine", x, "found no NaN"),
                            ("inplace", x, "let an error propagate"),
                            ("interrupt", x, "let a KeyboardInterrupt from loss_fn propagate (Ctrl-C)"),
                            ("warns", xn, "reported a NaN for a loss_fn that warns in its forward pass")]:
        r = student.call("nan_origin", name=name, x=inp, pad=pad if name in ("sqrt", "warns") else 0)
        # the call itself must have done its job, so that these flags belong to a working function
        if name in ("sqrt", "warns"):
            check_report(r, judge_origin(name, xn, pad), name, xn, pad)
        elif name == "fine":
            expect(r["error"] is None and r["returned"] is None,
                   f"find_nan_origin(loss, x) for a loss without NaN returned {r['returned']!r}, expected None")
        elif name == "interrupt":
            expect(r["error"] is not None and r["error"]["type"] == "KeyboardInterrupt",
                   f"find_nan_origin(loss, x) for a loss_fn that raises KeyboardInterrupt should let it propagate; "
                   f"got {r['error'] or r['returned']!r}")
        else:
            expect(r["error"] is not None and r["error"]["type"] == "RuntimeError",
                   f"find_nan_origin(loss, x) for a loss whose backward raises the in-place RuntimeError should "
                   f"let it propagate; got {r['error'] or r['returned']!r}")
        expect(not r["anomaly_on_after"], f"anomaly detection was still on after find_nan_origin {what}"
               + (" (the clause 'Anomaly detection is off again when the function returns or raises': a "
                  "KeyboardInterrupt is a BaseException, not an Exception; switch it off in a finally: block or "
                  "with the detect_anomaly() context manager)" if name == "interrupt" else ""))
        expect(r["escaped_warnings"] == 0, f"{r['escaped_warnings']} warning(s) escaped from find_nan_origin when "
                                           f"it {what}: collect them with warnings.catch_warnings(record=True)"
                                           + (f" around the whole call, loss_fn(x) included\n"
                                              f"{PROBES['loss_source'](name, pad)}" if name == "warns" else ""))
