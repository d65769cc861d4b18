"""Hidden checks of RangeObserver (exercise 2), against torch.ao.quantization.observer's MinMaxObserver,
PerChannelMinMaxObserver, MovingAverageMinMaxObserver and MovingAveragePerChannelMinMaxObserver."""
import pytest
import torch
from torch.ao.quantization import observer as tob

from course.judge.expect import expect, expect_close, expect_equal

pytestmark = pytest.mark.task("observer")
QD = {"int8": torch.qint8, "uint8": torch.quint8}
TOL = {"atol": 0.0, "rtol": 1e-6}
ULPS = 8  # float32 units in the last place of the largest |x| seen, for a moving average's rounding


def torch_observer(cfg):
    dtype, sym = QD[cfg.get("dtype", "uint8")], cfg.get("symmetric", False)
    ch, c = cfg.get("ch_axis"), cfg.get("averaging_constant")
    if ch is None:
        qs = torch.per_tensor_symmetric if sym else torch.per_tensor_affine
        if c is None:
            return tob.MinMaxObserver(dtype=dtype, qscheme=qs)
        return tob.MovingAverageMinMaxObserver(averaging_constant=c, dtype=dtype, qscheme=qs)
    qs = torch.per_channel_symmetric if sym else torch.per_channel_affine
    if c is None:
        return tob.PerChannelMinMaxObserver(ch_axis=ch, dtype=dtype, qscheme=qs)
    return tob.MovingAveragePerChannelMinMaxObserver(ch_axis=ch, averaging_constant=c, dtype=dtype, qscheme=qs)


def describe(cfg, positional=False):
    """The constructor call as the student's observer gets it: keywords, the dtype first (torch.uint8 where cfg names
    none), or with positional every argument by position up to the last one cfg names."""
    if positional:
        order = ("dtype", "symmetric", "ch_axis", "averaging_constant")
        defaults = {"dtype": "uint8", "symmetric": False, "ch_axis": None, "averaging_constant": None}
        n = max(order.index(k) for k in cfg) + 1 if cfg else 0
        args = [f"torch.{cfg.get(k, defaults[k])}" if k == "dtype" else repr(cfg.get(k, defaults[k])) for k in order[:n]]
        return f"RangeObserver({', '.join(args)})"
    args = ([f"torch.{cfg['dtype']}"] if "dtype" in cfg else []) + [f"{k}={v}" for k, v in cfg.items() if k != "dtype"]
    return f"RangeObserver({', '.join(args)})"


def compare(student, gen, cfg, xs, what_inputs, grad=False, qparams_each=False, layouts=None, eval_mode=False,
            positional=False):
    """Feed xs to the student's observer and to PyTorch's; compare ranges after each tensor and the qparams. With
    qparams_each both are asked for their qparams after every tensor, which must leave the ranges as they are; with
    layouts the student's observer gets tensor i in the memory layout layouts[i % len(layouts)] (the values are
    the same: "the float32 tensor x" is any tensor, as PyTorch's observers take it). With eval_mode the student's
    observer is in eval mode (PyTorch's observers record in either mode; the text names none). With positional the
    student's observer is built with its arguments by position, in the text's order (describe() shows the call)."""
    if layouts:
        what_inputs += f" (given in the memory layouts {', '.join(layouts[:len(xs)])})"
    what = f"{describe(cfg, positional)} after {what_inputs}"
    res = student.call("observe", cfg=cfg, xs=xs, grad=grad, qparams_each=qparams_each, layouts=layouts,
                       eval_mode=eval_mode, positional=positional)
    expect("error" not in res, f"{what}: {res.get('error')}")
    for key in ("same", "graph", "mins", "maxs"):  # one entry per tensor the judge sent, before any loop reads them
        expect(isinstance(res.get(key), (list, tuple)) and len(res[key]) == len(xs),
               f"{what}: the probe's reply has {key} for {len(res[key]) if isinstance(res.get(key), (list, tuple)) else 'no'} "
               f"tensors, expected one per tensor observed ({len(xs)})")
    expect(res["is_module"], f"{describe(cfg, positional)} is not an nn.Module")
    ref = torch_observer(cfg)
    seen, mag = False, 0.0
    for i, x in enumerate(xs):
        expect(res["same"][i], f"{describe(cfg, positional)}(x) for tensor {i} of {what_inputs} did not return x itself")
        ref(x)
        if qparams_each:
            ref.calculate_qparams()
        seen = seen or x.numel() > 0
        if not seen:
            continue  # nothing observed yet: the text does not say what the range is
        mag = max(mag, float(x.abs().max())) if x.numel() else mag
        # a moving average written another way (lerp, (1 - c) * a + c * b) rounds differently in float32: its error
        # is a few units in the last place of the operands, not of a result that may have cancelled to near zero
        tol = dict(TOL, atol=max(TOL["atol"], ULPS * torch.finfo(torch.float32).eps * mag))
        for name, got in (("min_val", res["mins"][i]), ("max_val", res["maxs"][i])):
            want = getattr(ref, name)
            expect(isinstance(got, torch.Tensor), f"{what}: {name} after tensor {i} is {got}, not a tensor")
            expect_equal(got.dtype, torch.float32, f"the dtype of {name} of {what}")
            expect_close(got, want, f"{name} of {describe(cfg, positional)} after tensor {i} of {what_inputs}", **tol)
    scale, zp = ref.calculate_qparams()
    expect(isinstance(res["scale"], torch.Tensor) and isinstance(res["zp"], torch.Tensor),
           f"calculate_qparams() of {what} returned {type(res['scale']).__name__} and {type(res['zp']).__name__}, "
           f"not two tensors")
    expect_equal(res["scale"].dtype, torch.float32, f"the dtype of the scale from calculate_qparams() of {what}")
    expect(not res["zp"].dtype.is_floating_point and res["zp"].dtype in (torch.int32, torch.int64),
           f"the zero point from calculate_qparams() of {what} has dtype {res['zp'].dtype}, not int32 or int64")
    # the scale is (max - min) / 255 or 2 * max(|min|, |max|) / 255: the ranges' rounding, carried through
    expect_close(res["scale"], scale, f"the scale from calculate_qparams() of {what}",
                 **dict(TOL, atol=max(TOL["atol"], 2 * ULPS * torch.finfo(torch.float32).eps * mag / 255)))
    expect_equal(res["zp"].to(torch.int64), zp.to(torch.int64), f"the zero point from calculate_qparams() of {what}")
    return res


# non-contiguous layouts (probelib.relayout; channels-last applies to 4-D tensors, strided elsewhere): a flattening
# .view(-1) or .view(C, -1) of x raises on them
LAYOUTS = ["transposed", "channels_last", "strided"]


def batches(gen, shape, n=3):
    """Tensors of different ranges: centred, shifted up (all positive) and wide."""
    xs = [torch.randn(shape, generator=gen) * 2, torch.rand(shape, generator=gen) * 3 + 0.5,
          torch.randn(shape, generator=gen) * 7 - 1]
    return xs[:n]


@pytest.mark.parametrize("dtype", ["uint8", "int8"])
@pytest.mark.parametrize("symmetric", [False, True])
def test_minmax_per_tensor(student, gen, dtype, symmetric):
    """per tensor, running extremes: min_val / max_val after each tensor and the qparams equal MinMaxObserver's, for
    tensors in any memory layout"""
    cfg = {"dtype": dtype, "symmetric": symmetric}
    compare(student, gen, cfg, batches(gen, (4, 5)), "three tensors (4, 5) of different ranges", layouts=LAYOUTS)


CH = [((6, 4, 3), 0, False), ((3, 5, 2), 1, True), ((2, 3, 4), -1, False), ((2, 3, 2, 2), 3, True)]


@pytest.mark.parametrize("shape,axis,symmetric", CH, ids=[f"{s}-axis{a}-{'sym' if y else 'affine'}" for s, a, y in CH])
def test_minmax_per_channel(student, gen, shape, axis, symmetric):
    """per channel along any ch_axis (negative too, counted from the end of each tensor, of any rank): ranges of shape
    (C,) and qparams equal PerChannelMinMaxObserver's, for tensors in any memory layout"""
    dtype = "int8" if symmetric else "uint8"
    cfg = {"dtype": dtype, "symmetric": symmetric, "ch_axis": axis}
    xs = batches(gen, shape)
    scale = torch.arange(1, shape[axis] + 1, dtype=torch.float32) ** 2  # channels of very different sizes
    view = [-1 if d == axis % len(shape) else 1 for d in range(len(shape))]
    xs = [x * scale.reshape(view) for x in xs]
    what = f"three tensors {shape} whose channels along dim {axis} differ in size"
    if axis < 0:  # one observer, tensors of three ranks: a negative axis is resolved on each x (as PyTorch's observer
        # does), not once on the first one and kept
        xs = [xs[0], xs[1].reshape((-1,) + shape[axis:]), xs[2].reshape((1,) + shape)]
        what = (f"three tensors of shapes {[tuple(x.shape) for x in xs]} whose channels along dim {axis} differ in size "
                f"(negative ch_axis counts from the end of each x)")
    compare(student, gen, cfg, xs, what, layouts=LAYOUTS)


@pytest.mark.parametrize("per,c", [("tensor", 0.01), ("channel", 0.3), ("tensor", 0.0)])
def test_moving_average(student, gen, per, c):
    """moving average: the first tensor sets the range, later ones move it by c times the difference (c = 0.0 too:
    the first range stays)"""
    cfg = {"dtype": "uint8" if per == "tensor" else "int8", "averaging_constant": c}
    if per == "channel":
        cfg.update(ch_axis=1, symmetric=True)
    xs = batches(gen, (3, 4)) + batches(gen, (3, 4), 2)
    compare(student, gen, cfg, xs, "five tensors (3, 4) of different ranges", layouts=LAYOUTS[::-1])


@pytest.mark.parametrize("case", ["all positive", "all negative", "zeros", "one value", "tiny range",
                                  "near float32's top"])
def test_one_sided_and_constant(student, gen, case):
    """the range is widened to include 0 (one-sided data), a zero-width range gives the eps scale (per tensor and per
    channel, affine and symmetric), a first tensor of zeros sets the range like any first tensor, and tensors of one element (0-dim too) are observed like any other; a tiny nonzero range gets the eps floor too, and values near float32's largest give a finite scale"""
    x = torch.rand(3, 4, generator=gen) + 1.0
    what = f"one tensor (3, 4), {case}"
    if case == "all negative":
        x = -x
    elif case == "zeros":
        x = torch.zeros(3, 4)
    elif case == "one value":
        x = torch.full((3, 4), float(torch.rand((), generator=gen)) * 5 + 0.1)
    elif case == "tiny range":  # (hi - lo) / 255 is far below eps, but not 0: the floor is eps, not only for 0
        x = (torch.rand(3, 4, generator=gen) * 2 - 1) * 1e-6
        what += (" in [-1e-6, 1e-6] (the unfloored scale, about 8e-9, is below eps = 1.19e-7 without being 0: the "
                 "text's eps floor applies to every scale, not only to a zero-width range)")
    elif case == "near float32's top":  # max(-lo, hi) / 127.5 is finite; 2 * max(-lo, hi) / 255 overflows to inf
        x = torch.rand(3, 4, generator=gen) * 2e38 + 1.2e38
        x[1] = -x[1]
        what += (" with |x| between 1.2e38 and 3.2e38, rows of both signs (symmetric: scale = max(-lo, hi) / "
                 "((qmax - qmin) / 2) in float32, finite here; 2 * max(-lo, hi) / (qmax - qmin) overflows to inf)")
    cfgs = ({"dtype": "uint8"}, {"dtype": "int8"}, {"dtype": "uint8", "symmetric": True},
            {"dtype": "int8", "ch_axis": 0})
    if case == "near float32's top":  # hi - lo of a two-sided range overflows in PyTorch's observer too: per channel
        # (one sign per row) the affine range stays finite; the symmetric one is finite per tensor and per channel
        cfgs = ({"dtype": "int8", "symmetric": True}, {"dtype": "uint8", "symmetric": True},
                {"dtype": "int8", "ch_axis": 0}, {"dtype": "int8", "ch_axis": 0, "symmetric": True})
    elif case == "tiny range":
        cfgs += ({"dtype": "int8", "symmetric": True, "ch_axis": 1},)
    for cfg in cfgs:
        compare(student, gen, cfg, [x], what)
    if case == "zeros":  # a first tensor of zeros is a first tensor: it sets the range, and the next one moves it
        later = torch.rand(3, 4, generator=gen) * 2 + 1.0
        for cfg in ({"dtype": "uint8", "averaging_constant": 0.25}, {"dtype": "int8", "ch_axis": 0}):
            compare(student, gen, cfg, [x, later], "a tensor (3, 4) of zeros, then an all-positive one")
    y = torch.randn(3, 4, generator=gen)
    y[1] = 0.0
    for cfg in ({"dtype": "uint8", "ch_axis": 0}, {"dtype": "int8", "ch_axis": 0, "symmetric": True}):
        compare(student, gen, cfg, [y], "a tensor (3, 4) whose row 1 is all zeros (that channel's scale is eps)")
    v = [torch.tensor(float(torch.randn((), generator=gen)) * 3), torch.randn(1, generator=gen) - 2]
    compare(student, gen, {"dtype": "int8"}, v, "a 0-dim tensor and a tensor of one element")
    compare(student, gen, {"dtype": "uint8", "ch_axis": 0, "averaging_constant": 0.2}, [v[1].reshape(1, 1), v[1].reshape(1, 1) + 5],
            "two tensors (1, 1), per channel")


def zero_point_apart(gen, n):
    """n ranges (lo, hi), lo < 0 < hi, whose affine zero point qmin - round(lo / scale) (scale = (hi - lo) / 255 in
    float32, as PyTorch's observers divide) differs from qmin - round(lo * (1 / scale)): lo is put next to a half
    level, lo / scale = -(k + 1/2), and moved towards 0 an ulp at a time until the two last bits round apart."""
    found = []
    for _ in range(50):
        hi = torch.rand(256, generator=gen) * 4 + 0.01
        k = torch.randint(0, 255, (256,), generator=gen).double()
        lo = (-(k + 0.5) * hi.double() / (254.5 - k)).float()
        for _ in range(4):
            scale = (hi - lo) / 255.0
            keep = torch.round(lo / scale) != torch.round(lo * (1.0 / scale))
            found += [p for p in zip(lo[keep].tolist(), hi[keep].tolist()) if p not in found]
            lo = torch.nextafter(lo, torch.zeros_like(lo))
        if len(found) >= n:
            break
    return found[:n]


def test_zero_point_rounds_halves_to_even(student, gen):
    """the affine zero point is qmin - round(lo / scale) with halves to even, as PyTorch's observers round it, and lo
    divided by the scale (lo * (1 / scale) rounds apart next to a half)"""
    # scale = (hi - lo) / 255 = 2 exactly, so lo / scale is an exact half: -1.5 and -3.5 go to -2 and -4
    # (round half up would give -1 and -3)
    xs = [torch.tensor([-3.0, 507.0]), torch.tensor([-7.0, 503.0])]
    for dtype in ("uint8", "int8"):
        for x in xs:
            compare(student, gen, {"dtype": dtype}, [x], f"one tensor {x.tolist()} (lo / scale = {x[0].item() / 2})")
    compare(student, gen, {"dtype": "uint8", "ch_axis": 0}, [torch.stack(xs)],
            "one tensor [[-3, 507], [-7, 503]] per row (lo / scale = -1.5 and -3.5)")
    # lo / scale within an ulp of a half level: qmin - round(lo / scale) as the text and PyTorch's observers compute it,
    # where lo * (1 / scale) (exercise 1's multiply-by-the-inverse, which is for quantize, not for the zero point)
    # lands on the neighbouring level
    pairs = zero_point_apart(gen, 3)
    expect(len(pairs) == 3, "the check found no range whose zero point by lo / scale and by lo * (1 / scale) differ "
           "(a grading error)")
    rows = torch.tensor([[lo, hi, hi / 2] for lo, hi in pairs], dtype=torch.float32)
    lo0, hi0 = rows[0, 0].item(), rows[0, 1].item()
    clause = "(the text: zero_point = qmin - round(lo / scale); lo * (1 / scale) rounds to the neighbouring level here)"
    for dtype in ("uint8", "int8"):
        compare(student, gen, {"dtype": dtype}, [rows[0]], f"one tensor [{lo0!r}, {hi0!r}, {hi0 / 2!r}] {clause}")
    compare(student, gen, {"dtype": "int8", "ch_axis": 0}, [rows],
            f"one tensor (3, 3) whose row c spans [lo_c, hi_c] = {[(lo, hi) for lo, hi in pairs]} {clause}")
    # int8: qmin - round(lo / scale), not round(qmin - lo / scale). The two agree on exact halves (qmin = -128 is
    # even), but the float32 subtraction -128 - v drops the last bits of a small v = lo / scale, so a v just short of
    # a half lands on it and rounds to the even neighbour
    pairs = zero_point_subtraction_apart(gen, 3)
    expect(len(pairs) == 3, "the check found no range whose zero point by qmin - round(lo / scale) and by "
           "round(qmin - lo / scale) differ (a grading error)")
    rows = torch.tensor([[lo, hi, hi / 2] for lo, hi in pairs], dtype=torch.float32)
    lo0, hi0 = rows[0, 0].item(), rows[0, 1].item()
    clause = ("(the text: zero_point = qmin - round(lo / scale); round(qmin - lo / scale) gives the neighbouring "
              "level here, as -128 - lo / scale rounds onto a half in float32)")
    compare(student, gen, {"dtype": "int8"}, [rows[0]], f"one tensor [{lo0!r}, {hi0!r}, {hi0 / 2!r}] {clause}")
    compare(student, gen, {"dtype": "int8", "ch_axis": 0}, [rows],
            f"one tensor (3, 3) whose row c spans [lo_c, hi_c] = {[(lo, hi) for lo, hi in pairs]} {clause}")


def zero_point_subtraction_apart(gen, n):
    """n ranges (lo, hi), lo < 0 < hi, for int8 (qmin = -128), whose zero point qmin - round(lo / scale) differs from
    round(qmin - lo / scale): lo / scale just short of -(k + 1/2) for a small odd k, where -128 - lo / scale rounds
    onto the half in float32 and round() sends it to the even neighbour."""
    found = []
    for _ in range(50):
        hi = torch.rand(256, generator=gen) * 4 + 0.01
        k = (torch.randint(0, 30, (256,), generator=gen) * 2 + 1).double()
        lo = (-(k + 0.5) * hi.double() / (254.5 - k)).float()
        for _ in range(24):
            v = lo / ((hi - lo) / 255.0)
            keep = (-128 - torch.round(v)) != torch.round(-128 - v)
            found += [p for p in zip(lo[keep].tolist(), hi[keep].tolist()) if p not in found]
            lo = torch.nextafter(lo, torch.zeros_like(lo))
        if len(found) >= n:
            break
    return found[:n]


def float32_apart(gen, n):
    """n ranges (lo, hi), lo < 0 < hi, whose affine scale (hi - lo) / 255 computed in float32 (hi - lo rounded to
    float32 first) differs in the last bit from the same formula computed in float64 and then rounded."""
    found = []
    for _ in range(50):
        lo = -(torch.rand(256, generator=gen) * 4 + 0.01)
        hi = torch.rand(256, generator=gen) * 4 + 0.01
        keep = (hi - lo) / 255.0 != ((hi.double() - lo.double()) / 255.0).float()
        found += list(zip(lo[keep].tolist(), hi[keep].tolist()))
        if len(found) >= n:
            break
    return found[:n]


@pytest.mark.parametrize("dtype", ["uint8", "int8"])
def test_affine_scale_in_float32(student, gen, dtype):
    """the affine scale is (hi - lo) / (qmax - qmin) computed in float32 (hi - lo rounded to float32 first): with the
    exact range of a min-max observer it equals PyTorch's bit for bit, per tensor and per channel"""
    pairs = float32_apart(gen, 4)
    expect(len(pairs) == 4, "the check found no range whose float32 and float64 scales differ (a grading error)")
    rows = torch.tensor([[lo, hi, (lo + hi) / 2] for lo, hi in pairs], dtype=torch.float32)
    lo0, hi0 = rows[0, 0].item(), rows[0, 1].item()
    for cfg, x, what_inputs in (({"dtype": dtype}, rows[0], f"one tensor [{lo0!r}, {hi0!r}, ...]"),
                                ({"dtype": dtype, "ch_axis": 0}, rows, "one tensor (4, 3) whose row c spans its own "
                                 "[lo_c, hi_c]")):
        res = compare(student, gen, cfg, [x], what_inputs)
        ref = torch_observer(cfg)
        ref(x)
        want, got = ref.calculate_qparams()[0].reshape(-1), res["scale"].reshape(-1)
        expect_equal(tuple(got.shape), tuple(want.shape), f"the shape of the scale of {describe(cfg)}")
        bad = (got != want).nonzero()
        if len(bad):
            c = int(bad[0])
            lo, hi = (lo0, hi0) if cfg.get("ch_axis") is None else (rows[c, 0].item(), rows[c, 1].item())
            expect(False, f"the scale from calculate_qparams() of {describe(cfg)} after {what_inputs}"
                   + ("" if cfg.get("ch_axis") is None else f", channel {c}") + f": for the range [{lo!r}, {hi!r}] "
                   f"expected {want[c].item()!r} (PyTorch's), got {got[c].item()!r}: scale = (hi - lo) / (qmax - qmin) "
                   f"is computed in float32, hi - lo rounded to float32 first (in float64 it differs in the last bit)")


@pytest.mark.parametrize("cfg", [{"dtype": "uint8"}, {"dtype": "int8", "ch_axis": 1, "averaging_constant": 0.2}],
                         ids=["minmax-tensor", "average-channel"])
def test_qparams_leave_the_range(student, gen, cfg):
    """asking for the qparams after each tensor (as QATLinear does) leaves min_val / max_val as they were; an
    observer in eval mode records as in training mode"""
    xs = [torch.rand(3, 4, generator=gen) + 1.0, torch.rand(3, 4, generator=gen) + 0.5,
          -(torch.rand(3, 4, generator=gen) + 2.0)]
    compare(student, gen, cfg, xs, "three one-sided tensors (3, 4), calculate_qparams() called after each "
            "(the widened range [min(lo, 0), max(hi, 0)] is for the qparams only, not stored in min_val / max_val), "
            "the observer in eval mode (.eval(): forward records in either mode, as PyTorch's observers do; "
            "QATLinear's eval mode is QATLinear's to handle)",
            qparams_each=True, eval_mode=True)


@pytest.mark.parametrize("per", ["tensor", "channel"])
def test_empty_changes_nothing(student, gen, per):
    """an empty tensor changes nothing, first or between others"""
    cfg = {"dtype": "uint8", "averaging_constant": 0.5}
    if per == "channel":
        cfg["ch_axis"] = 1
    xs = [torch.randn(2, 3, generator=gen), torch.zeros(0, 3), torch.randn(2, 3, generator=gen) * 4]
    compare(student, gen, cfg, xs, "tensors (2, 3), (0, 3) and (2, 3)")
    cfg.pop("averaging_constant")
    compare(student, gen, cfg, [torch.zeros(0, 3), xs[0], torch.zeros(2, 0), xs[2]],
            "tensors (0, 3), (2, 3), (2, 0) and (2, 3) (an empty tensor of any shape changes nothing)")


def test_returns_input_and_no_graph(student, gen):
    """forward returns x itself, and recording builds no autograd graph (x requires grad), per tensor and per
    channel, min-max and moving average"""
    for cfg in ({"dtype": "uint8"}, {"dtype": "int8", "ch_axis": 0, "averaging_constant": 0.1},
                {"dtype": "uint8", "averaging_constant": 0.1}, {"dtype": "int8", "ch_axis": -1}):
        res = compare(student, gen, cfg, batches(gen, (3, 4), 2), "two tensors (3, 4) that require grad", grad=True)
        expect(not any(res["graph"]), f"{describe(cfg)}: min_val or max_val carries an autograd graph after observing "
               f"a tensor that requires grad (record x.detach())")


def test_constructor_defaults_and_positional(student, gen):
    """the constructor's defaults (torch.uint8, affine, per tensor, running extremes) and its arguments by position, in
    the text's order (dtype, symmetric, ch_axis, averaging_constant)"""
    xs = batches(gen, (3, 4), 2)
    for cfg in ({}, {"symmetric": True}, {"ch_axis": 1}):  # dtype left to its default, torch.uint8
        compare(student, gen, cfg, xs, "two tensors (3, 4) (the text: RangeObserver(dtype=torch.uint8, "
                "symmetric=False, ch_axis=None, averaging_constant=None))")
    for cfg in ({"dtype": "int8", "symmetric": True}, {"dtype": "uint8", "ch_axis": 1},
                {"dtype": "int8", "symmetric": False, "ch_axis": 0, "averaging_constant": 0.25}):
        compare(student, gen, cfg, xs, "two tensors (3, 4) (the arguments by position, in the text's order "
                "RangeObserver(dtype, symmetric, ch_axis, averaging_constant))", positional=True)


META_CFGS = [{"dtype": "uint8"}, {"dtype": "int8", "symmetric": True, "averaging_constant": 0.1},
             {"dtype": "uint8", "ch_axis": 1, "averaging_constant": 0.2},
             {"dtype": "int8", "symmetric": True, "ch_axis": -1}, {"dtype": "uint8", "symmetric": True, "ch_axis": 0}]


def test_on_another_device(student, gen):
    """on tensors on another device (meta, the grader's GPU stand-in) the ranges, the scale and the zero point are
    there, per tensor and per channel, affine and symmetric, min-max and moving average"""
    for cfg in META_CFGS:
        shape = (3, 4)
        c = None if cfg.get("ch_axis") is None else shape[cfg["ch_axis"]]
        res = student.call("observer_on_meta", cfg=cfg, shape=list(shape))
        what = (f"{describe(cfg)} fed two tensors {shape} on the meta device (or, where the code reads values, on the "
                f"CPU with meta as the default device), then calculate_qparams()")
        expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on "
               f"the CPU) raised {res.get('error')}: every tensor it creates is on x's device")
        shapes = [[], [], [1], [1]] if c is None else [[c]] * 4
        expect(res["devices"] == ["meta"] * 4,
               f"{what}: min_val, max_val, the scale and the zero point are on {res['devices']}, expected all four on "
               f"meta, x's device (the text: every tensor it creates is on x's device)")
        expect(res["shapes"] == shapes, f"{what}: min_val, max_val, the scale and the zero point have shapes "
               f"{res['shapes']}, expected {shapes}")


def test_does_not_use_torch_observers(student, gen):
    """written without PyTorch's observers"""
    x = torch.randn(3, 4, generator=gen)
    res = student.call("observer_uses_torch", cfg={"dtype": "uint8", "ch_axis": 1}, x=x)
    expect(not res["calls"], f"RangeObserver called PyTorch's observers ({', '.join(res['calls'])}): write it from "
           f"aminmax and the formulas")
    ref = torch_observer({"dtype": "uint8", "ch_axis": 1})
    ref(x)
    expect_close(res["scale"], ref.calculate_qparams()[0], "the scales of RangeObserver(torch.uint8, ch_axis=1)", **TOL)


RECORD_CASES = [  # (cfg, shapes of the tensors fed in turn)
    ({"dtype": "uint8"}, [(1,)]),
    ({"dtype": "int8", "symmetric": True}, [()]),
    ({"dtype": "uint8"}, [(3, 4)]),
    ({"dtype": "uint8", "averaging_constant": 0.5}, [(1,), (1,)]),
    ({"dtype": "int8", "ch_axis": 1}, [(1, 4)]),
    ({"dtype": "uint8", "ch_axis": 0, "averaging_constant": 0.3}, [(3, 1), (3, 1)]),
]


def test_record_outlives_the_input(student, gen):
    """min_val and max_val are a record of the values seen, not views of x: changing x in place after observing it
    (a caller reusing its buffer, an optimizer stepping a weight) leaves them as PyTorch's observer has them, also
    where x holds one value per tensor or per channel"""
    for cfg, shapes in RECORD_CASES:
        xs = [torch.randn(s, generator=gen) * 2 for s in shapes]
        what = (f"{describe(cfg)} fed tensors of shapes {', '.join(str(s) for s in shapes)}, each changed in place "
                f"after forward returned (x.add_(100) then x.neg_())")
        res = student.call("observe_then_change", cfg=cfg, xs=xs)
        ref = torch_observer(cfg)
        for x in xs:
            ref(x)
        for name, got in (("min_val", res["min"]), ("max_val", res["max"])):
            want = getattr(ref, name)
            expect(isinstance(got, torch.Tensor), f"{what}: {name} is {got}, not a tensor")
            expect_close(got, want, f"{name} of {what} (expected the extremes of the values observed; got values that "
                         f"followed the later change of x: min_val and max_val must not be views of x)",
                         atol=ULPS * torch.finfo(torch.float32).eps * 10, rtol=1e-6)
