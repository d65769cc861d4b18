"""Hidden checks of quantized_linear (exercise 4): the judge's own integer computation and PyTorch's float
F.linear on the dequantized operands, and the dtypes of the matrix products that run inside."""
import warnings

import pytest
import torch
import torch.nn.functional as F

from course.judge.expect import expect, expect_equal

pytestmark = pytest.mark.task("qlinear")
FLOAT = ("torch.float32", "torch.float64", "torch.float16", "torch.bfloat16")


def levels(y, scale, zp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.quantize_per_tensor(y.contiguous(), scale, zp, torch.quint8).int_repr()


def float_path(qx, xs, xz, qw, ws, b, os_, oz):
    """quantize(F.linear(dequantize(qx), dequantize(qw), bias)): PyTorch's float computation."""
    x = (qx.to(torch.float64) - xz) * xs
    w = qw.to(torch.float64) * ws.to(torch.float64)[:, None]
    return levels(F.linear(x, w, None if b is None else b.to(torch.float64)).to(torch.float32), os_, oz)


def integer_path(qx, xs, xz, qw, ws, b, os_, oz):
    """The text's computation: an exact integer accumulator, one float32 rescale, requantized."""
    acc = (qx.to(torch.int64) - xz) @ qw.to(torch.int64).T
    y = acc.to(torch.float32) * (xs * ws)
    return levels(y if b is None else y + b, os_, oz)


def case(gen, lead, k, m, bias=True, extreme=False):
    qx = torch.randint(0, 256, tuple(lead) + (k,), generator=gen).to(torch.uint8)
    qw = torch.randint(-128, 128, (m, k), generator=gen).to(torch.int8)
    if extreme:
        qx = torch.where(torch.rand(qx.shape, generator=gen) < 0.5, 0, 255).to(torch.uint8)
        qw = torch.where(torch.rand(qw.shape, generator=gen) < 0.5, -128, 127).to(torch.int8)
        qw[0] = 127  # row 0 against all-255 inputs gives the largest accumulator
        qx.view(-1, k)[0] = 255
    xs = float(torch.rand((), generator=gen)) * 0.05 + 0.005
    xz = int(torch.randint(60, 200, (), generator=gen))
    ws = torch.rand(m, generator=gen) * 0.02 + 0.001
    b = torch.randn(m, generator=gen) if bias else None
    y = F.linear((qx.float() - xz) * xs, qw.float() * ws[:, None], b)
    os_ = max(float(y.abs().max()) / 100.0 if y.numel() else 0.0, 1e-3)  # most outputs inside, the largest clamp
    oz = int(torch.randint(90, 160, (), generator=gen))
    return [qx, xs, xz, qw, ws, b, os_, oz]


def run(student, args, what):
    names = ["qx", "x_scale", "x_zero_point", "qw", "w_scale", "bias", "out_scale", "out_zero_point"]
    res = student.call("qlinear", **dict(zip(names, args)))
    out = res["out"]
    expect(isinstance(out, torch.Tensor), f"{what} returned {out}, not a tensor")
    expect_equal(out.dtype, torch.uint8, f"the dtype of {what}")
    lead, m = tuple(args[0].shape[:-1]), args[3].shape[0]
    expect_equal(tuple(out.shape), lead + (m,), f"the shape of {what}")
    return res


def check_values(student, args, what):
    res = run(student, args, what)
    got = res["out"].to(torch.int64)
    near = float_path(*args).to(torch.int64)
    off = (got - near).abs()
    if bool((off > 1).any()):
        i = tuple(int(v) for v in (off > 1).nonzero()[0])
        expect(False, f"{what}: {int((off > 1).sum())} of {off.numel()} outputs are more than one level from "
               f"quantizing F.linear(dequantize(qx), dequantize(qw), bias); first at {i}: expected {near[i].item()} "
               f"(+-1), got {got[i].item()}")
    exact = integer_path(*args).to(torch.int64)
    n_diff = int((got != exact).sum())
    expect(n_diff <= max(1, off.numel() // 100),
           f"{what}: {n_diff} of {off.numel()} outputs differ from the int32 accumulator rescaled by x_scale * w_scale, "
           f"plus bias, rounded half to even and clamped (the text's computation); within one level is not enough "
           f"when most levels are off (floor instead of round? the zero point added before rounding?)")
    return res


SHAPES = [((), 16, 4, True), ((3, 7), 33, 6, False), ((2, 3), 8, 1, True), ((1,), 1, 3, False), ((0,), 5, 3, True),
          ((2, 0), 4, 2, False)]


@pytest.mark.parametrize("lead,k,m,bias", SHAPES, ids=[f"{l}-K{k}-M{m}-{'bias' if b else 'nobias'}" for l, k, m, b in SHAPES])
def test_matches_float_computation(student, gen, lead, k, m, bias):
    """within one level of the quantized float computation, and equal to the text's integer computation, for qx of
    shape (..., K) with no, one and two leading dimensions (a single vector (K,) gives (M,)), and a zero-size batch
    ((0, K) gives (0, M), (2, 0, K) gives (2, 0, M))"""
    args = case(gen, lead, k, m, bias)
    what = (f"quantized_linear(qx {lead + (k,)}, {args[1]:.4g}, {args[2]}, qw ({m}, {k}), w_scale ({m},), "
            f"{'bias' if bias else 'None'}, {args[6]:.4g}, {args[7]})")
    check_values(student, args, what)


@pytest.mark.parametrize("k", [64, 2048])
def test_extreme_levels_and_large_k(student, gen, k):
    """levels 0/255 and -128/127 with K up to 2048: the accumulator needs 32 bits and qx - zero point a signed type"""
    args = case(gen, (4,), k, 5, extreme=True)
    what = (f"quantized_linear(qx (4, {k}) of levels 0 and 255, {args[1]:.4g}, {args[2]}, qw (5, {k}) of levels -128 and "
            f"127, ...)")
    check_values(student, args, what)


def test_int32_accumulation(student, gen):
    """the matrix product runs on int32 operands into an int32 result, no floating-point product runs, and no
    quantized op of PyTorch"""
    args = case(gen, (3,), 24, 4)
    res = check_values(student, args, "quantized_linear(qx (3, 24), ..., qw (4, 24), ...)")
    prods = res["products"]
    floats = [p for p in prods if p[2] in FLOAT or any(d in FLOAT for d in p[1])]
    ints = [p for p in prods if p[2] == "torch.int32" and p[1] and all(d == "torch.int32" for d in p[1])]
    seen = "; ".join(f"{p[0]}({', '.join(p[1])}) -> {p[2]}" for p in prods) or "none"
    builtin = [op for op in res["ops"] if "quantize" in op or "prepack" in op or "int_repr" in op or "::" in op]
    expect(not builtin, f"quantized_linear ran PyTorch's quantized ops or an operator of its own registry, whose "
           f"inside no check sees ({', '.join(builtin)}): write it from integer tensor operations")
    expect(not floats, f"quantized_linear ran a floating-point matrix product ({seen}): multiply the levels as integers")
    expect(bool(ints), f"quantized_linear's matrix products were {seen}: expected one on int32 operands with an "
           f"int32 result (the accumulator)")


def test_saturates(student, gen):
    """outputs beyond the output range clamp at 0 and 255"""
    args = case(gen, (6,), 12, 5)
    args[6] = args[6] / 20.0  # a small output scale: many outputs clamp
    what = f"quantized_linear(qx (6, 12), ..., out_scale={args[6]:.4g}, out_zero_point={args[7]}) (many outputs clamp)"
    res = check_values(student, args, what)
    out = res["out"]
    expect(bool((out == 0).any() and (out == 255).any()), f"{what}: expected some outputs at 0 and 255")


def test_on_another_device(student, gen):
    """on tensors on another device (meta, the grader's GPU stand-in) the result is a uint8 tensor there"""
    lead, k, m = [int(torch.randint(1, 4, (), generator=gen))], int(torch.randint(2, 9, (), generator=gen)), 3
    for bias in (True, False):
        res = student.call("qlinear_on_meta", lead=lead, k=k, m=m, bias=bias)
        what = (f"quantized_linear(qx {tuple(lead) + (k,)}, ..., qw ({m}, {k}), w_scale, {'bias' if bias else 'None'}, "
                f"...) on the meta device (or, where the code reads values, on the CPU with meta as the default device)")
        expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on "
               f"the CPU) raised {res.get('error')}: create every tensor on qx's device")
        expect(res["devices"] == ["meta"] and res["shapes"] == [lead + [m]] and res["dtypes"] == ["torch.uint8"],
               f"{what}: expected a torch.uint8 tensor of shape {lead + [m]} on meta, got {res['dtypes']} of shapes "
               f"{res['shapes']} on {res['devices']}")


def _tie_operands(gen):
    """One draw of a (1, 8) uint8 input and (6, 8) int8 weights with their scales and the input's zero point, and
    their int32 accumulator as float32: (qx, x_scale, x_zero_point, qw, w_scale, acc)."""
    qx = torch.randint(0, 256, (1, 8), generator=gen).to(torch.uint8)
    qw = torch.randint(-128, 128, (6, 8), generator=gen).to(torch.int8)
    xs = float(torch.rand((), generator=gen)) * 0.05 + 0.005
    xz = int(torch.randint(60, 200, (), generator=gen))
    ws = torch.rand(6, generator=gen) * 0.02 + 0.001
    acc = ((qx.to(torch.int64) - xz) @ qw.to(torch.int64).T).to(torch.float32)
    return qx, xs, xz, qw, ws, acc


def _expect_tie_level(student, args, m, near, why):
    """Output m of quantized_linear(*args), built to lie next to a half level (``near``), is the judge's level."""
    what = (f"quantized_linear(qx (1, 8), {args[1]!r}, {args[2]}, qw (6, 8), w_scale (6,), None, {args[6]!r}, 128), "
            f"built so that output {m} lies next to a half level{near}")
    res = run(student, args, what)
    got, want = res["out"].to(torch.int64)[0, m].item(), integer_path(*args).to(torch.int64)[0, m].item()
    expect(got == want, f"{what}: output {m} is level {got}, expected {want}: {why}")


def rescale_tie_case(gen, order):
    """Operands and an output scale for which the text's rescale acc * (x_scale * w_scale) and the reordered one
    (acc * x_scale * w_scale, or acc * w_scale * x_scale), or the one in float64, land on the two sides of a half
    level for one output."""
    for _ in range(400):
        qx, xs, xz, qw, ws, acc = _tie_operands(gen)
        right = acc * (xs * ws)
        if order == "float64":  # the rescale taken in double precision, rounded to float32 at the end
            other = (acc.to(torch.float64) * (xs * ws.to(torch.float64))).to(torch.float32)
        else:
            other = acc * xs * ws if order == "x_scale first" else acc * ws * xs
        for _, m in (right != other).nonzero().tolist():
            a, b = float(right[0, m]), float(other[0, m])
            for k in range(40):
                s0 = torch.tensor(abs(a + b) / 2 / (k + 0.5), dtype=torch.float32)
                for s in (s0, *(torch.nextafter(s0, s0 + d) for d in (1, -1))):
                    lv = levels(torch.tensor([a, b]), float(s), 128)
                    if lv[0] != lv[1]:
                        return [qx, xs, xz, qw, ws, None, float(s), 128], m
    return None, None


@pytest.mark.parametrize("order", ["x_scale first", "w_scale first", "float64"])
def test_rescale_is_one_product_of_scales(student, gen, order):
    """the accumulator is rescaled by the one float32 product x_scale * w_scale, not by the two scales in turn nor in
    float64 (next to a half level the last-bit difference moves the output level)"""
    args, m = rescale_tie_case(gen, order)
    expect(args is not None, "the check found no output where the two rescalings round apart (a grading error)")
    other = ("rescaling in float64 and rounding y to float32 at the end" if order == "float64" else
             f"rescaling by the scales one after the other ({order.replace(' first', '')} first)")
    _expect_tie_level(student, args, m, "", f"y = acc * (x_scale * w_scale) + bias in float32 (one product of the "
                      f"scales, then one multiply); {other} rounds differently")


def requant_tie_case(gen):
    """Operands and an output scale for which one output y, requantized like quantize (round(y * (1 / out_scale))
    with the inverse in float32), lands on another level than round(y / out_scale)."""
    for _ in range(400):
        qx, xs, xz, qw, ws, acc = _tie_operands(gen)
        y = acc * (xs * ws)
        for m in range(6):
            a = y[0, m:m + 1]
            for k in range(40):
                s0 = torch.tensor(abs(float(a)) / (k + 0.5), dtype=torch.float32)
                for s in (s0, torch.nextafter(s0, s0 + 1), torch.nextafter(s0, s0 - 1)):
                    if float(s) > 0 and levels(a, float(s), 128)[0] != torch.clamp(torch.round(a / s) + 128, 0, 255)[0]:
                        return [qx, xs, xz, qw, ws, None, float(s), 128], m
    return None, None


def test_requantized_like_quantize(student, gen):
    """y is requantized like quantize: round(y * (1 / out_scale)) with the inverse in float32, not y / out_scale
    (next to a half level the two land on different levels)"""
    args, m = requant_tie_case(gen)
    expect(args is not None, "the check found no output where the two requantizations round apart (a grading error)")
    _expect_tie_level(student, args, m, " of out_scale", "y is requantized like quantize, clamp(round(y * inv) + "
                      "out_zero_point, 0, 255) with inv = 1 / out_scale in float32; round(y / out_scale) lands on the "
                      "other level here")


def bias_tie_case(gen):
    """Operands, a bias and an output scale for which the text's y = acc * (x_scale * w_scale) + bias in float32 and
    the bias folded into the accumulator as whole steps, (acc + round(bias / (x_scale * w_scale))) * (x_scale *
    w_scale), land on the two sides of a half level for one output: the bias is drawn a fraction 0.2 to 0.4 of a step
    off a whole number of steps, so the two differ by that much."""
    for _ in range(400):
        qx, xs, xz, qw, ws, acc = _tie_operands(gen)
        step = xs * ws
        frac = (torch.rand(6, generator=gen) * 0.2 + 0.2) * torch.where(torch.rand(6, generator=gen) < 0.5, -1.0, 1.0)
        b = ((torch.randint(-400, 400, (6,), generator=gen) + frac) * step).to(torch.float32)
        right = acc * step + b
        other = (acc + torch.round(b / step)) * step
        for _, m in (right != other).nonzero().tolist():
            a, c = float(right[0, m]), float(other[0, m])
            if a * c <= 0:
                continue
            for k in range(40):
                s = torch.tensor(abs(a + c) / 2 / (k + 0.5), dtype=torch.float32)
                lv = levels(torch.tensor([a, c]), float(s), 128)
                if lv[0] != lv[1]:
                    return [qx, xs, xz, qw, ws, b, float(s), 128], m
    return None, None


def test_bias_added_after_rescale(student, gen):
    """the bias is added in float32 after the rescale, y = acc * (x_scale * w_scale) + bias, not folded into the
    int32 accumulator as round(bias / (x_scale * w_scale)) steps (next to a half level the two land apart)"""
    args, m = bias_tie_case(gen)
    expect(args is not None, "the check found no output where the two ways of adding the bias round apart (a grading "
           "error)")
    what = (f"quantized_linear(qx (1, 8), {args[1]!r}, {args[2]}, qw (6, 8), w_scale (6,), bias (6,), {args[6]!r}, "
            f"128), built so that output {m} lies next to a half level, with bias[{m}] = {float(args[5][m])!r}, "
            f"a fraction of a step x_scale * w_scale[{m}] off a whole number of steps")
    res = run(student, args, what)
    got, want = res["out"].to(torch.int64)[0, m].item(), integer_path(*args).to(torch.int64)[0, m].item()
    expect(got == want, f"{what}: output {m} is level {got}, expected {want}: the text's \"y = acc * (x_scale * "
           f"w_scale) + bias in float32\" (the bias added as a float after the rescale); a bias rounded to whole "
           f"steps of the accumulator lands on the other level here")
