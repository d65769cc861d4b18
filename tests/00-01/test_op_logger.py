"""Hidden checks of OpLogger (exercise 6): the judge runs the same computation without a mode, under
FlopCounterMode and under its own dispatch mode, and compares outputs, gradients, FLOPs and the op log."""
import importlib.util
import sys
from pathlib import Path

for _name, _file in (("course_00_01_layouts", "layouts.py"), ("course_00_01_graphs", "probes.py")):
    if _name not in sys.modules:
        _s = importlib.util.spec_from_file_location(_name, Path(__file__).with_name(_file))
        sys.modules[_name] = importlib.util.module_from_spec(_s)
        _s.loader.exec_module(sys.modules[_name])
L, G = sys.modules["course_00_01_layouts"], sys.modules["course_00_01_graphs"]

import pytest  # noqa: E402
import torch  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.utils.flop_counter import FlopCounterMode  # noqa: E402

from course.judge.expect import expect, expect_close, fail  # noqa: E402

pytestmark = pytest.mark.task("op_logger")


class _Names(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def expected(spec):
    leaves, run = G.build_oplog_case(spec)
    out = run().detach().clone()
    grads = [None if t.grad is None else t.grad.clone() for t in leaves]
    _, run = G.build_oplog_case(spec)
    with FlopCounterMode(display=False) as counter:
        run()
    flops = {str(k): int(v) for k, v in counter.get_flop_counts()["Global"].items()}
    _, run = G.build_oplog_case(spec)
    names = _Names()
    if spec.get("outer_modes"):  # FlopCounterMode's module hooks make calls of their own inside the block: log them too
        with FlopCounterMode(display=False):
            with _Names():
                with names:
                    run()
    else:
        with names:
            run()
    return out, grads, flops, names.ops


def judge(student, specs):
    for spec in specs:
        out, grads, flops, ops = expected(spec)
        what = f"for `with OpLogger() as log:` around the case {spec}"
        got = student.call("op_logger_case", spec=spec)
        expect_close(got["out"], out, f"the block's output (clause: run every call unchanged), {what}", atol=0, rtol=0)
        expect(isinstance(got["grads"], list) and len(got["grads"]) == len(grads),
               f"the probe should return {len(grads)} leaf gradients, it returned {got['grads']!r:.200}, {what}")
        for i, (g, w) in enumerate(zip(got["grads"], grads)):
            if (g is None) != (w is None):
                fail(f"leaf {i} has grad {'None' if g is None else 'set'}, expected "
                     f"{'None' if w is None else 'a gradient'} (clause: gradients the same as without the mode), {what}")
            if w is not None:
                expect_close(g, w, f"gradient of leaf {i} (clause: gradients the same as without the mode), {what}",
                             atol=0, rtol=0)
        if got["flops_type"] != "dict" or got["flops"] != flops:
            fail(f"log.flops should be {flops} (FlopCounterMode's count), got {got['flops']!r}, {what}")
        if got["ops_type"] != "list" or got["ops"] != ops:
            first = next((i for i, (a, b) in enumerate(zip(got["ops"], ops)) if a != b), min(len(got["ops"]), len(ops)))
            fail(f"log.ops should list {len(ops)} overloads in call order; first difference at "
                 f"position {first}: expected {ops[first:first + 3]}, got {list(got['ops'])[first:first + 3]!r}, {what}")
        if spec.get("nested"):
            judge_outer(got.get("outer"), flops, ops, what)
        if spec.get("outer_modes"):
            judge_outer_modes(got.get("outer_modes"), flops, ops, what)


def judge_outer_modes(outer, flops, ops, what):
    """FlopCounterMode and the judge's own logging mode around the OpLogger: each call the logger gets, it runs,
    so both see it (a logger that passes calls on only to other OpLoggers starves every other mode)."""
    where = ("`with FlopCounterMode() as fc: with JudgesMode() as seen: with OpLogger() as log:` around the case "
             f"({what[4:]})")
    clause = "a mode active around the block (such as an outer OpLogger) still sees every call"
    if not isinstance(outer, dict):
        fail(f"the probe returned {outer!r:.200} for the outer modes, {where}")
    if outer["flops"] != flops:
        fail(f"the outer FlopCounterMode should count {flops} (what it counts for the block alone), it counted "
             f"{outer['flops']!r} (clause: {clause}), {where}")
    it = iter(outer["ops"])
    missing = next((o for o in ops if not any(o == seen for seen in it)), None)
    if missing is not None:
        fail(f"the outer mode should see the block's {len(ops)} overloads in call order (clause: {clause}); "
             f"{missing!r} is missing or out of order among the {len(outer['ops'])} it saw, {where}")


def judge_outer(outer, flops, ops, what):
    """An OpLogger around the inner one: every call reached the inner logger, ran, and so reached the outer one
    too (in order; a correct inner logger may run calls of its own besides, so the judge's list need only appear
    in the outer log in order)."""
    where = f"the OUTER log of `with OpLogger() as outer: with OpLogger() as log:` around the case ({what[4:]})"
    clause = "other modes active around the block still see every call"
    if not isinstance(outer, dict) or outer["flops_type"] != "dict" or outer["flops"] != flops:
        fail(f"outer.flops should be {flops} (FlopCounterMode's count; clause: {clause}), got "
             f"{None if not isinstance(outer, dict) else outer['flops']!r}, {where}")
    it = iter(outer["ops"] if outer["ops_type"] == "list" else [])
    missing = next((o for o in ops if not any(o == seen for seen in it)), None)
    if missing is not None:
        fail(f"outer.ops should hold the block's {len(ops)} overloads in call order (clause: {clause}); "
             f"{missing!r} is missing or out of order among the {len(outer['ops'])} it logged, {where}")


def _conv(r, **fixed):
    groups = fixed.get("groups", r.choice([1, 2]))
    spec = {"kind": "conv", "seed": r.randint(0, 10**6), "backward": fixed.get("backward", True),
            "channels": [2 * groups * r.randint(1, 2), 2 * groups * r.randint(1, 2)],
            "kernel": r.choice([1, 2, 3]), "stride": r.choice([1, 2]), "padding": r.choice([0, 1, 2]),
            "dilation": r.choice([1, 2]), "groups": groups, "bias": r.random() < 0.5, "n": r.randint(1, 3),
            "hw": [r.randint(6, 9), r.randint(6, 9)], "input_grad": r.random() < 0.7}
    spec.update(fixed)
    return spec


def _linear(r, **fixed):
    spec = {"kind": "linear", "seed": r.randint(0, 10**6), "backward": True,
            "dims": [r.randint(1, 6), r.randint(1, 6), r.randint(1, 6)], "bias": [r.random() < 0.5, r.random() < 0.5],
            "batch": r.choice([[r.randint(1, 5)], [r.randint(1, 3), r.randint(1, 4)]]), "input_grad": r.random() < 0.5}
    spec.update(fixed)
    return spec


def test_linear(student, gen):
    """Linear layers with and without bias, 2-d and 3-d inputs, forward and backward, once inside an outer OpLogger and once inside FlopCounterMode and another mode: FLOPs equal FlopCounterMode's, ops logged in order (by every mode), outputs and gradients unchanged"""
    r = L.rng(gen)
    # the second case also runs inside an outer OpLogger: both must log every call (a logger that switches off
    # every mode around its calls starves the outer one); the third inside FlopCounterMode and the judge's own
    # logging mode, which are no OpLoggers (a logger that hands its calls only to other OpLoggers starves them)
    judge(student, [_linear(r, bias=[True, False], batch=[4], input_grad=True),
                    _linear(r, bias=[False, True], batch=[2, 3], nested=True),
                    _linear(r, bias=[True, True], batch=[3], input_grad=True, outer_modes=True),
                    _linear(r, backward=False)] + [_linear(r) for _ in range(2)])


def test_conv(student, gen):
    """Conv2d, Conv1d and Conv3d with stride, padding, dilation, groups and bias or not, forward and backward (with and without the input's gradient, and with a frozen weight, once inside an outer OpLogger): FLOPs equal FlopCounterMode's"""
    r = L.rng(gen)
    specs = [_conv(r, groups=1, bias=True, input_grad=True), _conv(r, groups=2, bias=False, input_grad=True),
             _conv(r, groups=2, input_grad=False), _conv(r, backward=False)] + [_conv(r) for _ in range(2)]
    # a frozen weight: output_mask[1] is false and FlopCounterMode counts no weight gradient (only the input's)
    specs += [_conv(r, weight_grad=False, input_grad=True, nested=True)]
    # x of shape (N, C_in, ...): prod(out) and prod(k) run over every spatial dimension, not just two
    specs += [_conv(r, hw=[r.randint(6, 9)]), _conv(r, n=1, kernel=r.choice([1, 2]), hw=[r.randint(4, 5) for _ in range(3)])]
    judge(student, specs)


def test_matmul_ops(student, gen):
    """bmm, baddbmm (beta, alpha, a full or broadcast added tensor), addmm and mm called directly, forward and backward (once into existing .grad), on integer tensors and through out="""
    r = L.rng(gen)
    specs = []
    for back, c3 in ((False, "full"), (True, "row"), (True, r.choice(["mat", "col"]))):
        b, m, k, n = r.randint(1, 3), r.randint(1, 4), r.randint(1, 5), r.randint(1, 4)
        if c3 == "full":  # an empty inner dimension: every product ran and FlopCounterMode lists each with 0 FLOPs
            k = 0
        # baddbmm's added tensor also comes broadcast: its shape must not enter the count of the bmm of a and b
        shape = {"full": [b, m, n], "row": [n], "mat": [m, n], "col": [m, 1]}[c3]
        # grad0 on the last case: backward adds into existing .grad in place, which a mode must run exactly once
        specs.append({"kind": "mm_ops", "seed": r.randint(0, 10**6), "backward": back, "bmkn": [b, m, k, n],
                      "c3": shape, "beta": r.choice([0.0, 0.5, 1.0]), "alpha": r.choice([1.0, 2.0]),
                      "grad0": c3 in ("mat", "col")})
    # integer products, forward only: FlopCounterMode counts them by the same formulas, so OpLogger must too; addmm
    # and mm write through out= here, whose overloads (aten.addmm.out, aten.mm.out) count under the same packets
    specs.append({"kind": "mm_ops", "seed": r.randint(0, 10**6), "backward": False, "dtype": "int64", "out": True,
                  "bmkn": [r.randint(1, 3), r.randint(1, 4), r.randint(1, 5), r.randint(1, 4)], "beta": 1, "alpha": 2})
    judge(student, specs)


def test_vector_products_and_views(student, gen):
    """mv, dot and the in-place addmm_ and baddbmm_ next to mm (FlopCounterMode counts only the mm: other products have no entry), and a view made inside the block and written through (it still shares memory), forward and backward"""
    # "other operators ... have no entry": a matrix-vector or vector product is not one of the six packets, and
    # "run every call unchanged": a view returned as a copy leaves the tensor it was cut from unwritten
    r = L.rng(gen)
    judge(student, [{"kind": "vec_ops", "seed": r.randint(0, 10**6), "backward": back,
                     "mk": [r.randint(1, 4), r.randint(1, 5)]} for back in (False, True)])


@pytest.mark.task("op_logger", weight=0.1)  # its right answer is the same for every student: worth little
def test_fresh_logger(student):
    """a new OpLogger starts with an empty list and an empty dict"""
    got = student.call("op_logger_fresh")
    expect(got["ops"] == [] and got["flops"] == {},
           f"OpLogger() before use: expected ops [] and flops {{}}, got ops {got['ops']!r} and flops {got['flops']!r}")
    expect(got["first_after"] == got["first_before"],
           "an OpLogger that logged `ones(2, 3) @ ones(3, 2)` held ops {0[ops]!r} and flops {0[flops]!r}; making a new "
           "OpLogger() afterwards changed them to ops {1[ops]!r} and flops {1[flops]!r} (clause: a new OpLogger() starts "
           "with an empty list and an empty dict of its own; an earlier log keeps the calls of its block)"
           .format(got["first_before"], got["first_after"]))


@pytest.mark.task("op_logger", weight=0.1)  # its right answer is the same for every student: worth little
def test_error_in_block(student):
    """an error raised inside the with block reaches the caller and the mode is off afterwards; an op that raises
    is still logged, and its own error still reaches the block"""
    got = student.call("op_logger_raises")
    expect(got["seen"] == "KeyError",
           f"a KeyError raised inside `with OpLogger():` should reach the caller; the caller saw {got['seen']}")
    expect(got["depth_after"] == got["depth_before"],
           f"after an error inside `with OpLogger():` the dispatch mode stack should be back to depth "
           f"{got['depth_before']}, it is {got['depth_after']} (the mode stays on)")
    expect(got["logged_inside"] >= 1 and got["logged_after_exit"] == 0,
           f"the logger should see the op run inside the block ({got['logged_inside']} logged) and none after it "
           f"({got['logged_after_exit']} logged after the block ended)")
    expect(got["raising_op_logged"],
           "inside `with OpLogger():`, torch.mm(ones(2, 3), ones(2, 3)) reaches __torch_dispatch__ and raises a shape "
           "error there; every call that reaches __torch_dispatch__ belongs in ops, so 'aten.mm.default' should be "
           "logged (log it before calling func, not after it returns)")
    # the same products that raise, each in its own try, then one that runs: FlopCounterMode counts a call once it
    # has returned, so the raising ones have no FLOPs (a count made from the input shapes before calling func is
    # wrong there); the judge runs the same code under FlopCounterMode and under its own logging mode
    operands = G.raising_operands()
    with FlopCounterMode(display=False) as counter:
        G.raising_products(operands)
    flops = {str(k): int(v) for k, v in counter.get_flop_counts()["Global"].items()}
    operands, names = G.raising_operands(), _Names()
    with names:
        raised = G.raising_products(operands)
    mine = got["raising_products"]
    what = ("inside `with OpLogger() as log:`, mm, addmm, bmm, baddbmm and conv1d called with shapes that do not "
            "match and ones(3).select(0, 5) (each raises inside aten, caught by the block: the select an IndexError, "
            "which must reach the block as an IndexError), then torch.mm(ones(2, 3), ones(3, 4))")
    # the operator's own error goes through the mode to the block, as it does without a mode (a logger that
    # swallows it and returns None hides the failure from the caller)
    if got.get("raised") != raised:
        calls = ["mm", "addmm", "bmm", "baddbmm", "conv1d", "ones(3).select(0, 5)"]
        lost = [c for c, g, w in zip(calls, got.get("raised") or [None] * 6, raised) if g != w]
        fail(f"{what}: the block should catch {raised} from the six calls (their own errors, as without the mode), "
             f"it caught {got.get('raised')!r}; {lost} did not raise through the logger (clause: an exception raised "
             "inside the block goes through to the caller; run every call unchanged)")
    if mine["flops_type"] != "dict" or mine["flops"] != flops:
        fail(f"{what}: log.flops should be {flops} (FlopCounterMode's count: a call that raised did no work and is "
             f"not counted; count after func returns), got {mine['flops']!r}")
    if mine["ops_type"] != "list" or mine["ops"] != names.ops:
        fail(f"{what}: log.ops should be {names.ops} (every call that reached __torch_dispatch__, the raising ones "
             f"included), got {mine['ops']!r}")
