"""Hidden checks of sinusoidal_positions and patch_embed (exercise 4): the judge's own table, and a strided
convolution."""
import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_equal, expect_raises, fail
from course.judge.strategies import WRITABLE_LAYOUTS, relayout

pytestmark = pytest.mark.task("embed")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def table(length, d, base=10000.0):
    """PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(...), in float64."""
    pos = torch.arange(length, dtype=f64)[:, None]
    angle = pos / base ** (torch.arange(0, d, 2, dtype=f64) / d)
    out = torch.empty(length, d, dtype=f64)
    out[:, 0::2], out[:, 1::2] = torch.sin(angle), torch.cos(angle)
    return out


def positions(student, what, **kw):
    got = student.call("positions", **kw)
    if not isinstance(got, torch.Tensor):
        fail(f"{what} returned {got}, not a tensor")
    return got


CASES = {  # a kind of table: its length and width are drawn from the check's seed
    "default base": (None, None, None),
    "base 100": (None, None, 100.0),
    "base 2": (None, None, 2.0),
    # not a float32 number: torch.tensor(base) rounds it (round 25); 200 positions, so that the rounding moves
    # the last angles by about 1e-7, past the tolerance whatever the seed (a drawn length under ~20 did not)
    "base 12345.678": (200, 8, 12345.678),
    "one position": (1, None, None),
    "width 2": (None, 2, None),
}


@pytest.mark.essential
@pytest.mark.parametrize("kind", list(CASES))
def test_positions_match(student, gen, kind):
    """sinusoidal_positions: sines in even columns, cosines in odd ones, frequencies base^(-2i/d)"""
    length, d, base = CASES[kind]
    length = length or int(torch.randint(2, 40, (), generator=gen))
    # with a base given, at least 4 columns: a table of width 2 (one frequency, base^0 = 1) is the same for every base
    d = d or 2 * int(torch.randint(2 if base else 1, 12, (), generator=gen))
    what = f"sinusoidal_positions({length}, {d}" + (f", base={base}" if base else "") + ", dtype=torch.float64)"
    if kind == "base 100":  # the same length, width and dtype with the default base first (round 29: a table
        # memoised per size and dtype, the base forgotten, answered the second call with the first one's table)
        first = f"sinusoidal_positions({length}, {d}, dtype=torch.float64)"
        expect_close(positions(student, first, length=length, d_model=d, dtype=f64), table(length, d), first, **TOL)
        what += f" right after {first}"
    got = positions(student, what, length=length, d_model=d, base=base, dtype=f64)
    expect_equal(got.dtype, f64, f"the dtype of {what}")
    expect_close(got, table(length, d, base or 10000.0), what, **TOL)


def test_positions_default_dtype_and_long_sequences(student, gen):
    """float32 by default, angles computed in float64 (accurate for positions in the thousands)"""
    length, d = int(torch.randint(5000, 9000, (), generator=gen)), 2 * int(torch.randint(2, 9, (), generator=gen))
    what = f"sinusoidal_positions({length}, {d})"
    got = positions(student, what, length=length, d_model=d)
    expect_equal(got.dtype, torch.float32, f"the dtype of {what} (float32 by default)")
    expect_close(got, table(length, d).float(), what + " (compute the angles in float64, then cast)",
                 atol=1e-6, rtol=0)
    what = f"sinusoidal_positions({length}, {d}, dtype=torch.float16)"
    got = positions(student, what, length=length, d_model=d, dtype=torch.float16)
    expect_equal(got.dtype, torch.float16, f"the dtype of {what}")
    expect_close(got.double(), table(length, d).half().double(), what + " (positions and angles in float64, cast to "
                 "float16 only at the end: float16 holds positions above 2048 only to a few units)", atol=2e-3, rtol=0)


def test_positions_empty(student, gen):
    """length 0 gives an empty (0, d_model) table (positions 0 .. length - 1: none)"""
    d = 2 * int(torch.randint(1, 9, (), generator=gen))
    what = f"sinusoidal_positions(0, {d})"
    got = positions(student, what, length=0, d_model=d)
    expect_equal((list(got.shape), got.dtype), ([0, d], torch.float32), f"the shape and dtype of {what}")


def test_positions_arguments_by_position(student, gen):
    """sinusoidal_positions(length, d_model, base, dtype): every argument by position, in that order"""
    length = int(torch.randint(150, 250, (), generator=gen))
    for args, want in (([length, 8, 12345.678], table(length, 8, 12345.678).float()),
                       ([length, 6, 100.0, f64], table(length, 6, 100.0))):
        what = f"sinusoidal_positions({', '.join(map(str, args))}) (every argument by position)"
        res = student.call("positions_positional", args=args)
        expect("error" not in res, f"{what} raised {res.get('error')}")
        expect_equal(res["out"].dtype, want.dtype, f"the dtype of {what}")
        expect_close(res["out"], want, what + " (the text: 'sinusoidal_positions(length, d_model, base=10000.0, "
                     "dtype=torch.float32)': the third argument is the base, the fourth the dtype)",
                     **(TOL if want.dtype == f64 else {"atol": 1e-6, "rtol": 1e-6}))


@pytest.mark.task("embed", weight=0.1)  # the right answer is a constant ("raised X"): worth little
def test_positions_reject_odd_width(student, gen):
    """an odd d_model raises ValueError, for any length (0 included)"""
    d = 2 * int(torch.randint(0, 8, (), generator=gen)) + 1
    expect_raises(student.call("positions_odd", d_model=d), "ValueError", f"sinusoidal_positions(4, {d})")
    expect_raises(student.call("positions_odd", d_model=d, length=0), "ValueError",
                  f"sinusoidal_positions(0, {d}) (the text: 'an odd d_model raises ValueError', whatever the length)")


def conv_reference(images, weight, bias):
    ph, pw = weight.shape[-2:]
    return F.conv2d(images, weight, bias, stride=(ph, pw)).flatten(2).transpose(1, 2)


def check_patches(student, gen, images, weight, bias, what):
    inputs = [t.detach().clone().requires_grad_(True) for t in (images, weight) + ((bias,) if bias is not None else ())]
    want = conv_reference(*inputs, *(() if bias is not None else (None,)))
    v = torch.randn(want.shape, generator=gen, dtype=f64)
    grads = torch.autograd.grad(want, inputs, v)
    res = student.call("patches", images=inputs[0], weight=inputs[1], bias=inputs[2] if bias is not None else None,
                       v_out=v)
    expect_close(res["out"], want.detach(), what, **TOL)
    if not isinstance(res.get("grads"), list) or len(res["grads"]) != len(grads):
        fail(f"{what}: expected one gradient entry per input ({len(grads)}), got {res.get('grads')!r:.80}")
    for name, g, w in zip(("images", "weight", "bias"), res["grads"], grads):
        if g is None:
            fail(f"the gradient of <g, {what}> with respect to the {name}: none reached it")
        expect_close(g, w, f"the gradient of <g, {what}> with respect to the {name}", **TOL)
    return res


PATCH_CASES = [  # images (N, C, H, W), weight (E, C, ph, pw), bias?
    ((2, 3, 8, 8), (5, 3, 4, 4), True),
    ((1, 2, 6, 9), (4, 2, 2, 3), True),
    ((2, 1, 7, 10), (3, 1, 3, 4), False),
    ((3, 4, 5, 5), (1, 4, 5, 5), True),
    ((1, 2, 4, 6), (6, 2, 1, 1), False),
    ((1, 1, 1, 1), (3, 1, 1, 1), True),
    ((0, 2, 4, 6), (3, 2, 2, 3), False),  # an empty batch: F.conv2d gives (0, P, E)
]


@pytest.mark.essential
@pytest.mark.parametrize("images,weight,bias", PATCH_CASES, ids=[f"{a}-{b}-{c}" for a, b, c in PATCH_CASES])
def test_patches_match_conv(student, gen, images, weight, bias):
    """patch_embed equals a convolution with stride = kernel = patch size, flattened row-major, with gradients"""
    x = torch.randn(images, generator=gen, dtype=f64)
    w = torch.randn(weight, generator=gen, dtype=f64)
    b = torch.randn(weight[0], generator=gen, dtype=f64) if bias else None
    what = f"patch_embed(images {images}, weight {weight}, {'bias' if bias else 'None'})"
    check_patches(student, gen, x, w, b, what + " (patches in row-major order, each flattened as (C, ph, pw); "
                  "leftover rows and columns dropped)")


def test_patches_compute_no_convolution(student, gen):
    """patch_embed runs no convolution (conv2d, nn.Conv2d or F.unfold's im2col)"""
    x, w, b = (torch.randn(s, generator=gen, dtype=f64) for s in ((2, 3, 8, 8), (4, 3, 4, 4), (4,)))
    res = check_patches(student, gen, x, w, b, "patch_embed(images (2, 3, 8, 8), weight (4, 3, 4, 4), bias)")
    used = [op for op in res["ops"] if "conv" in op or "im2col" in op or "col2im" in op]
    expect(not used, f"patch_embed ran a convolution ({', '.join(used)}): cut the patches with reshape and "
           f"permute and project them with one matrix multiply")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=st.sampled_from(WRITABLE_LAYOUTS), seed=st.integers(0, 2**31 - 1), with_bias=st.booleans())
def test_patches_any_layout(student, layout, seed, with_bias):
    """images and weights in any memory layout (transposed, strided, offset, channels-last)"""
    g = torch.Generator().manual_seed(seed)
    x = relayout(torch.randn(2, 3, 6, 8, generator=g, dtype=f64), layout)
    w = relayout(torch.randn(5, 3, 2, 4, generator=g, dtype=f64), layout)
    b = torch.randn(5, generator=g, dtype=f64) if with_bias else None
    got = student.call("patches_keep_layout", images=x, weight=w, bias=b)
    expect_close(got, conv_reference(x, w, b), f"patch_embed(images (2, 3, 6, 8) and weight (5, 3, 2, 4) in a {layout} "
                 f"layout, strides {x.stride()} and {w.stride()}, {'bias' if with_bias else 'None'}) (use reshape, "
                 f"not view)", **TOL)


@pytest.mark.parametrize("with_bias", [False, True], ids=["bias None", "bias"])
def test_patches_on_another_device(student, gen, with_bias):
    """patch_embed on images and a weight on a device other than the default (meta, a GPU stand-in): every tensor it
    makes (a zero bias) is on the images' device"""
    n, c, e, p = (int(torch.randint(1, 4, (), generator=gen)) for _ in range(4))
    images, weight = [n, c, 2 * p + 1, 3 * p], [e, c, p, p]
    res = student.call("patches_on_meta", images_shape=images, weight_shape=weight, with_bias=with_bias)
    want = [n, ((2 * p + 1) // p) * 3, e]
    what = (f"patch_embed(images {tuple(images)}, weight {tuple(weight)}, {'bias' if with_bias else 'None'}) on the "
            f"meta device (the grader's stand-in for a GPU: a tensor made without device= lands on the CPU)")
    expect("error" not in res, f"{what} raised {res.get('error')}: create every tensor (a zero bias too) with "
           f"device=images.device, or add no bias when it is None")
    expect(res["devices"] == ["meta"] and res["shapes"] == [want],
           f"{what}: expected an output of shape {want} on meta, got {res['shapes']} on {res['devices']}")
