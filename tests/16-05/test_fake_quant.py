"""Hidden checks of fake_quantize (exercise 3), against torch.fake_quantize_per_tensor_affine forward and backward."""
import pytest
import torch

from course.judge.expect import expect, expect_equal

pytestmark = pytest.mark.task("fake_quant")
BUILTIN = ("fake_quantize", "quantize_per_tensor", "quantize_per_channel", "dequantize", "_fake_quant")
RANGES = [(-128, 127), (0, 255), (-8, 7), (0, 15), (-32768, 32767)]



def _differing(got, want, what):
    """The entries where got != want, once got is a tensor of want's shape: a reply of another shape (an empty one
    broadcasts into a comparison of nothing) fails here with its shape."""
    expect(isinstance(got, torch.Tensor), f"{what}: {got}")
    expect_equal(tuple(got.shape), tuple(want.shape), f"the shape of {what}")
    return got != want

def reference(x, scale, zp, lo, hi, g):
    x = x.detach().clone().requires_grad_(True)
    y = torch.fake_quantize_per_tensor_affine(x, scale, zp, lo, hi)
    (gx,) = torch.autograd.grad(y, [x], g)
    return y.detach(), gx


def formula(x, scale, zp, lo, hi, g):
    """The text's computation by the judge, in float32 with no integer cast: (clamp(round(x * inv) + zp, lo, hi) - zp)
    * scale with inv = 1 / float32(scale), and the incoming gradient where lo <= round(x * inv) + zp <= hi."""
    s32 = torch.tensor(scale, dtype=torch.float32)
    level = torch.round(x * (1.0 / s32)) + zp
    return (torch.clamp(level, lo, hi) - zp) * s32, g * ((level >= lo) & (level <= hi))


def check(student, what, x, scale, zp, lo, hi, g=None, layout="contiguous", ref=reference,
          against="torch.fake_quantize_per_tensor_affine", nograd=False):
    if g is None:
        g = torch.randn(x.shape, generator=torch.Generator().manual_seed(x.numel()))
    res = student.call("fake_quant", x=x, scale=scale, zero_point=zp, quant_min=lo, quant_max=hi, g=g, layout=layout,
                       nograd=nograd)
    out = res["out"]
    expect(isinstance(out, torch.Tensor), f"{what} returned {out}, not a tensor")
    expect_equal(out.dtype, torch.float32, f"the dtype of {what}")
    want, gwant = ref(x, scale, zp, lo, hi, g)
    expect_equal(tuple(out.shape), tuple(want.shape), f"the shape of {what}")
    bad = out != want
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} values differ from "
               f"{against}; first at {i}: x = {x[i].item()!r}, expected {want[i].item()!r}, "
               f"got {out[i].item()!r}")
    # signed zeros: a level equal to the zero point gives +0.0 ((level - zero_point) * scale; PyTorch's kernel
    # subtracts integers), never -0.0 (the same number for ==, but 1 / y is -inf, and torch.signbit tells them apart)
    bad = torch.signbit(out) != torch.signbit(want)
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} values have the other sign from {against}; first "
               f"at {i}: x = {x[i].item()!r}, expected {want[i].item()!r}, got {out[i].item()!r} (the text: "
               f"(clamp(round(x * inv) + zero_point, ...) - zero_point) * scale, which is +0.0 where the level is the "
               f"zero point)")
    grad = res["grad"]
    badg = _differing(grad, gwant, f"the gradient of {what}")
    if badg.any():
        i = tuple(int(v) for v in badg.nonzero()[0])
        lvl = torch.round(x[i] * (1.0 / torch.tensor(scale, dtype=torch.float32))).item() + zp
        expect(False, f"the gradient of <g, {what}> with respect to x: {int(badg.sum())} of {badg.numel()} entries differ "
               f"from PyTorch's straight-through estimator; first at {i}: x = {x[i].item()!r} (level {lvl:g} before "
               f"clamping to [{lo}, {hi}]), incoming {g[i].item():.4g}, expected {gwant[i].item():.4g}, got "
               f"{grad[i].item():.4g} (the gradient passes where the rounded level is inside the range)")
    expect(res["unchanged"], f"{what} changed x in place")
    if nograd:  # the same call on an x that does not require grad: the same values, and x still left as it was
        out2 = res["out_nograd"]
        bad = _differing(out2, want, f"{what} on an x that does not require grad")
        if bad.any():
            i = tuple(int(v) for v in bad.nonzero()[0])
            expect(False, f"{what} on an x that does not require grad: {int(bad.sum())} of {bad.numel()} values differ "
                   f"from {against}; first at {i}: x = {x[i].item()!r}, expected {want[i].item()!r}, got "
                   f"{out2[i].item()!r}")
        expect(res["unchanged_nograd"], f"{what} on an x that does not require grad changed x in place (the text: "
               f"\"`x` is left unchanged\", with or without a graph to keep)")
    return res


@pytest.mark.parametrize("rng,shape", list(zip(RANGES, [(9,), (3, 4, 5), (2, 7), (11,), (13,)])),
                         ids=[f"{a}..{b}" for a, b in RANGES])
def test_matches_torch(student, gen, rng, shape):
    """values and straight-through gradients equal torch.fake_quantize_per_tensor_affine's, 8-bit, 4-bit and 16-bit
    ranges, and x is left unchanged, whether it requires grad or not"""
    lo, hi = rng
    scale = float(torch.rand((), generator=gen)) * 0.2 + 0.01
    zp = int(torch.randint(lo, hi + 1, (), generator=gen))
    x = torch.randn(shape, generator=gen) * scale * (hi - lo) * 0.6
    check(student, f"fake_quantize(x {shape}, {scale:.6g}, {zp}, {lo}, {hi})", x, scale, zp, lo, hi,
          g=torch.randn(shape, generator=gen), nograd=True)


@pytest.mark.parametrize("rng", [(-128, 127), (0, 15)], ids=["-128..127", "0..15"])
def test_edges_of_the_range(student, gen, rng):
    """at the edges the rounded level decides: half a step past the last level rounds back inside (gradient kept)
    or outside (gradient zero), halves go to the even level, and x * (1/scale) is used"""
    lo, hi = rng
    zp = lo + 3
    scale = 0.25
    k = torch.arange(lo - 3, hi + 4, dtype=torch.float32)
    x = torch.cat([(k - zp) * scale, (k - zp + 0.5) * scale, (k - zp - 0.5) * scale])
    x = x[torch.randperm(x.numel(), generator=gen)]
    check(student, f"fake_quantize(x, 0.25, {zp}, {lo}, {hi}) for x on every level and half level from {lo - 3} to "
          f"{hi + 3}", x, scale, zp, lo, hi)
    lo, hi, zp = -128, 127, zp - lo - 128  # 256 levels: enough half levels where the two roundings part
    for _ in range(50):
        scale = float(torch.rand((), generator=gen)) * 0.05 + 0.005
        s32 = torch.tensor(scale, dtype=torch.float32)
        cand = (torch.arange(lo - 2, hi + 2, dtype=torch.float32) + 0.5 - zp).repeat(8) * s32
        cand = torch.nextafter(cand, cand + torch.randint(-1, 2, cand.shape, generator=gen).to(torch.float32))
        x = cand[torch.round(cand / s32) != torch.round(cand * (1.0 / s32))][:64]
        if x.numel() >= 4:
            break
    expect(x.numel() >= 4, "the check found too few inputs near a level boundary (a grading error)")
    check(student, f"fake_quantize(x, {scale!r}, {zp}, {lo}, {hi}) for values next to half levels where x / scale and "
          f"x * (1/scale) round differently", x, scale, zp, lo, hi)


def test_inverse_of_a_python_float_scale(student, gen, double_scale_inputs):
    """the Python float scale is made float32 and inverted in float32, 1 / float32(scale), not 1.0 / scale taken in
    double precision (the two differ in the last bit for many scales)"""
    scale, x = double_scale_inputs(gen, 64)
    expect(x.numel() >= 4, "the check found no scale whose two inverses differ (a grading error)")
    check(student, f"fake_quantize(x, {scale!r}, 3, -128, 127) for {x.numel()} values next to a half level, where "
          f"x * float32(1.0 / scale) rounds differently from x * (1 / float32(scale))", x, scale, 3, -128, 127)


def test_extremes_and_zero_size(student, gen):
    """values far outside the range (gradient zero), past 2^31 and 2^63 levels and infinities too, zeros (+0.0 out for
    -0.0 and small negatives too), a zero-size and a 0-dim tensor"""
    x = torch.tensor([0.0, -0.0, 1e7, -1e7, 1e6, -1e6, 3.0, -3.0, -0.001, -0.004])
    check(student, f"fake_quantize(x, 0.01, 4, -128, 127) for x = {x.tolist()}", x, 0.01, 4, -128, 127, nograd=True)
    # past 2^31 and 2^63 levels, and past float32's range (x * inv overflows to inf): clamp(round(x * inv) + zp) is
    # still qmax above 0 and qmin below, gradient 0 (+-inf too: a detach trick x * mask or (x - x.detach()) * mask
    # is nan there, as inf * 0); an integer cast of the level before the clamp wraps. Checked
    # against the judge's own float32 computation of the formula (PyTorch's CPU kernel gives the same here)
    lo, hi = RANGES[int(torch.randint(0, len(RANGES), (), generator=gen))]
    scale = float(torch.rand((), generator=gen)) * 0.05 + 0.005
    zp = int(torch.randint(lo, hi + 1, (), generator=gen))
    levels = torch.tensor([3e9, 5e9, 1e10, 1e12, 3e18, 1e19, 1e25], dtype=torch.float32)
    far = torch.cat([levels, -levels]) * torch.tensor(scale, dtype=torch.float32)
    far = torch.cat([far, torch.tensor([3e38, -3e38, float("inf"), -float("inf")])])
    far = far[torch.randperm(far.numel(), generator=gen)]
    check(student, f"fake_quantize(x, {scale!r}, {zp}, {lo}, {hi}) for x = {[f'{v:.3g}' for v in far.tolist()]} "
          f"(billions of levels and more beyond the range, and +-inf: each saturates at the range's end, gradient "
          f"zero)",
          far, scale, zp, lo, hi, ref=formula, against="(clamp(round(x * inv) + zero_point, quant_min, quant_max) - "
          "zero_point) * scale computed without an integer cast")
    check(student, "fake_quantize(x of shape (0, 4), 0.1, 0, 0, 255)", torch.zeros(0, 4), 0.1, 0, 0, 255)
    v = float(torch.randn((), generator=gen))
    check(student, f"fake_quantize(torch.tensor({v:.4g}), 0.1, 0, -8, 7)", torch.tensor(v), 0.1, 0, -8, 7)


@pytest.mark.parametrize("layout", ["transposed", "strided"])
def test_any_layout(student, gen, layout):
    """any memory layout of x gives the same values and gradients, and x is left unchanged"""
    x = torch.randn(4, 6, generator=gen)
    check(student, f"fake_quantize(x (4, 6) {layout}, 0.02, -3, -128, 127)", x, 0.02, -3, -128, 127,
          g=torch.randn(4, 6, generator=gen), layout=layout)


def test_gradient_in_a_larger_graph(student, gen):
    """in y = fake_quantize(x) + x autograd hands one incoming gradient to both branches: the gradient of x is
    PyTorch's straight-through one plus g, and g itself is left unchanged; with a second call on another tensor before
    the one backward (as QATLinear's input and weight), each call's gradient keeps its own mask"""
    x = torch.randn(4, 6, generator=gen) * 3  # scale 0.02, -128..127: about a third of the entries clamp
    g = torch.randn(4, 6, generator=gen)
    x2 = torch.randn(4, 6, generator=gen) * 0.5  # 0.1, 0..15 with zero point 3: most entries clamp, others not
    args2, g2 = [0.1, 3, 0, 15], torch.randn(4, 6, generator=gen)
    res = student.call("fake_quant_in_graph", x=x, scale=0.02, zero_point=1, quant_min=-128, quant_max=127, g=g,
                       x2=x2, args2=args2, g2=g2)
    what = ("the gradient of <g, fake_quantize(x, 0.02, 1, -128, 127) + x> + <g2, fake_quantize(x2, 0.1, 3, 0, 15)> "
            "with respect to x, for x and x2 (4, 6) (both calls run before the backward)")
    grad, want = res["grad"], reference(x, 0.02, 1, -128, 127, g)[1] + g
    bad = _differing(grad, want, what)
    expect(res["g_unchanged"], f"{what}: the incoming gradient g was changed in place (backward must return a new "
           f"tensor: autograd may hand the same gradient to other parts of the graph)")
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} entries differ from PyTorch's; first at {i}: "
               f"expected {want[i].item():.4g}, got {grad[i].item():.4g}")
    grad2, want2 = res["grad2"], reference(x2, *args2, g2)[1]
    what2 = what.replace("with respect to x,", "with respect to x2,")
    bad = _differing(grad2, want2, what2)
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what2}: {int(bad.sum())} of {bad.numel()} entries differ from PyTorch's straight-through "
               f"gradient; first at {i}: x2 = {x2[i].item():.4g}, expected {want2[i].item():.4g}, got "
               f"{grad2[i].item():.4g} (each call's backward masks with its own rounded levels)")


def test_does_not_call_pytorch_quantizer(student, gen):
    """written without PyTorch's quantize or fake-quantize functions"""
    x = torch.randn(3, 5, generator=gen)
    res = check(student, "fake_quantize(x (3, 5), 0.05, 2, -128, 127)", x, 0.05, 2, -128, 127)
    used = [op for op in res["ops"] if any(b in op for b in BUILTIN) or "::" in op]  # "ns::op": one of its own
    expect(not used, f"fake_quantize ran PyTorch's quantizer or an operator of its own registry, whose inside no "
           f"check sees ({', '.join(used)}): write it from round, clamp and arithmetic, with your own backward")


def test_on_another_device(student, gen):
    """on a tensor on another device (meta, the grader's GPU stand-in) the value and gradient are there"""
    shape = [int(torch.randint(1, 5, (), generator=gen)), 3]
    res = student.call("fake_quant_on_meta", shape=shape)
    what = (f"fake_quantize(x {shape} on the meta device (or, where the code reads values, on the CPU with meta as the "
            f"default device), 0.1, 2, -128, 127) and its gradient")
    expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on the "
           f"CPU) raised {res.get('error')}: create every tensor on x's device")
    expect(res["devices"] == ["meta", "meta"] and res["shapes"] == [shape, shape],
           f"{what}: expected two tensors of shape {shape} on meta, got shapes {res['shapes']} on {res['devices']}")


def test_mask_of_the_forward_pass(student, gen):
    """the straight-through mask is the forward pass's: if x is changed in place between the forward and the backward,
    the gradient still follows the levels x had in the forward (as PyTorch's backward), or autograd reports the
    change (its error for a tensor saved with save_for_backward); it never silently follows the new values"""
    x = torch.cat([torch.rand(6, generator=gen) * 2 + 0.5, torch.rand(6, generator=gen) * 10 + 20])  # inside, clamped
    x = x[torch.randperm(12, generator=gen)]
    g = torch.randn(12, generator=gen)
    what = ("the gradient of <g, fake_quantize(x, 0.1, 0, -128, 127)> with respect to x, for x (12,) with 6 entries "
            "inside the range and 6 clamped, after x.mul_(0.01) under no_grad between the forward and the backward")
    res = student.call("fake_quant_changed_before_backward", x=x, scale=0.1, zero_point=0, quant_min=-128,
                       quant_max=127, g=g, factor=0.01)
    if "error" in res:
        expect("modified by an inplace operation" in res["error"],
               f"{what}: the backward raised {res['error']} (autograd's in-place error would be accepted)")
        return
    want = reference(x, 0.1, 0, -128, 127, g)[1]
    bad = _differing(res["grad"], want, what)
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} entries differ from PyTorch's straight-through "
               f"gradient; first at {i}: x was {x[i].item():.4g} in the forward, expected {want[i].item():.4g}, got "
               f"{res['grad'][i].item():.4g} (the mask must be the forward's levels, not rebuilt from x at backward "
               f"time)")
