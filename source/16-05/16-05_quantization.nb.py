# %% [markdown]
# # 16-05 · Quantization: observers, fake quantization, int8 kernels
#
# A float32 weight costs four bytes and a float multiply-add; an int8 weight costs one byte and an integer
# multiply-add, which CPUs and GPUs run several times faster and with a quarter of the memory traffic. The price
# is precision: 256 levels instead of about four billion. Quantization is the bookkeeping that makes this trade
# work: a **scale** and a **zero point** that map floats to integers and back, **observers** that choose them from
# the values a tensor actually takes, **fake quantization** that lets a model learn with the rounding in the loop,
# and **integer kernels** that never leave the integers until the very end.
#
# You build each piece from tensor operations and check it against PyTorch's own implementation.
#
# **Which implementation is the reference.** PyTorch 2.14 still ships the eager quantization stack,
# `torch.ao.quantization` (observers, `FakeQuantize`), and it imports without a warning. The quantized tensor
# dtypes (`torch.qint8`, `torch.quint8`) and the functions that create them, `torch.quantize_per_tensor` and
# `torch.quantize_per_channel`, are marked deprecated: the first call prints a `UserWarning`. Their successor,
# `torchao`, is a separate package that this course does not install. So the checks compare with
# `torch.quantize_per_tensor` / `torch.quantize_per_channel` (their integer values, `int_repr()`), with the
# observers of `torch.ao.quantization.observer`, and with `torch.fake_quantize_per_tensor_affine`; the
# arithmetic they define is the same one `torchao` uses, with plain `int8` / `uint8` tensors.
#
# **You will build**
# 1. `quantize` and `dequantize`: affine quantization per tensor and per channel (int8 and uint8), equal to
#    `torch.quantize_per_tensor` / `torch.quantize_per_channel`.
# 2. `RangeObserver`: min-max and moving-average observers, per tensor and per channel, affine and symmetric,
#    equal to PyTorch's observers.
# 3. `fake_quantize`: quantize-then-dequantize with the straight-through estimator, equal to
#    `torch.fake_quantize_per_tensor_affine` forward and backward.
# 4. `quantized_linear`: a linear layer on int8 weights and uint8 activations with an int32 accumulator.
# 5. `QATLinear`: a linear layer trained with fake quantization in the loop; the grader trains a small model
#    with it and a float twin, and compares their accuracy.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run right away, and
# **Validate runs only those visible checks**: "Success!" means they pass, not that you have full marks.
# When you submit, hidden checks test the same code much harder: many shapes and channel axes, values exactly
# half way between two levels, values far outside the range, zero-size tensors, gradients, and PyTorch's own
# functions on the same inputs. Heavy demos only run when you run the notebook yourself (`run_demos()` is False
# while grading). Keep the `def` and `class` lines of the skeletons as they are (the parameters' names, their
# order and their defaults): a hidden check compares them, and a parameter you add must come after them, with a
# default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import torch

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()

import warnings

import torch.nn as nn
import torch.nn.functional as F

_ = torch.manual_seed(0)


def torch_quantize(x, scale, zero_point, dtype, axis=None):
    """PyTorch's own quantizer, as integers (its deprecation warning silenced): the reference of exercise 1."""
    qdtype = {torch.int8: torch.qint8, torch.uint8: torch.quint8}[dtype]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        if axis is None:
            return torch.quantize_per_tensor(x, scale, zero_point, qdtype).int_repr()
        return torch.quantize_per_channel(x, scale, zero_point, axis, qdtype).int_repr()


# %% [markdown]
# ## 1. A scale and a zero point
#
# Affine quantization maps a real number $x$ to an integer $q$ in a small range $[q_{min}, q_{max}]$ and back:
#
# $$q = \mathrm{clamp}\big(\mathrm{round}(x / s) + z,\; q_{min},\; q_{max}\big), \qquad \hat x = (q - z)\, s .$$
#
# The **scale** $s > 0$ is the size of one step (one *quantum*) in real units; the **zero point** $z$ is the
# integer that stands for the real number 0. Two integer ranges are common: `int8`, $[-128, 127]$, for weights,
# and `uint8`, $[0, 255]$, for activations that come out of a ReLU and are mostly positive. Why keep 0 exact?
# Zero padding, ReLU outputs and masked entries are all exact zeros, and an error there would add up.
#
# Three details decide whether your integers equal PyTorch's bit for bit:
#
# * **Rounding.** `torch.round` rounds halves to the nearest *even* integer (`round(2.5) = 2`, `round(3.5) = 4`),
#   which avoids a bias towards larger magnitudes; `floor(v + 0.5)` rounds every half up and is not the same.
# * **Multiply by the inverse.** PyTorch's kernels do not divide: they compute `inv = 1 / s` once, in float32, and
#   multiply, `round(x * inv) + z`. The two differ in the last bit for some `x`, and a last-bit difference right
#   next to a half moves the value to the other level. The cell below counts how often.
# * **Clamping.** Values beyond the range saturate at $q_{min}$ or $q_{max}$; they are not wrapped around, as a
#   plain `.to(torch.int8)` of an out-of-range float would do.
#
# **Per channel.** A weight matrix whose rows have very different magnitudes wastes levels if one scale serves all
# of them. Per-channel quantization gives each index along one dimension (the *axis*, usually the output
# channel, dimension 0 of a `Linear` or `Conv2d` weight) a scale and a zero point of its own; the formula is the
# same, with $s$ and $z$ broadcast along that dimension.

# %%
_x = torch.randn(100_000) * 3
_s = torch.tensor(0.0123, dtype=torch.float32)
_by_div = torch.round(_x / _s)
_by_inv = torch.round(_x * (1.0 / _s))
print("levels that differ between x / s and x * (1 / s):", int((_by_div != _by_inv).sum()), "of", _x.numel())
print("torch.round of halves:", torch.round(torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])).tolist())
print("a wrapped cast of 200.0 to int8:", torch.tensor(200.0).to(torch.int8).item())

# %% [markdown]
# The error a quantizer makes inside its range is at most half a step, $s/2$; outside it grows without bound.
# The plot shows both for `int8` with $s = 0.05$, $z = 0$ (a demo).

# %%
if run_demos():
    import matplotlib.pyplot as plt

    xs = torch.linspace(-8, 8, 2001)
    q = torch.clamp(torch.round(xs * (1.0 / torch.tensor(0.05))), -128, 127)
    xh = q * 0.05
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    axes[0].plot(xs, xh)
    axes[0].set_title("dequantize(quantize(x)): int8, s = 0.05")
    axes[1].plot(xs, (xh - xs).abs())
    axes[1].axhline(0.025, color="gray", linestyle="--", label="s / 2")
    axes[1].set_title("|error|")
    axes[1].legend()
    for ax in axes:
        ax.set_xlabel("x")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 1 · `quantize` and `dequantize` (4 points)
#
# Write both from tensor operations; do not call `torch.quantize_per_tensor`, `torch.quantize_per_channel`,
# `torch.fake_quantize_per_tensor_affine` (or its per-channel twin), `Tensor.dequantize`, or an operator of your
# own registered with `torch.library` (no check can see inside one).
#
# * `quantize(x, scale, zero_point, dtype, axis=None)` takes a float32 tensor `x` and returns a tensor of `x`'s
#   shape whose dtype is `dtype`: `torch.int8` (levels -128 to 127) or `torch.uint8` (levels 0 to 255).
# * Each level is `clamp(round(x * inv) + zero_point, qmin, qmax)`, where `inv = 1 / scale` is computed in float32
#   from the float32 scale and `round` sends halves to the even neighbour, so that the result equals
#   `torch.quantize_per_tensor(x, scale, zero_point, torch.qint8 or torch.quint8).int_repr()` exactly.
# * With `axis=None`, `scale` is a Python float and `zero_point` a Python int.
# * With an integer `axis`, `scale` (float32) and `zero_point` (int64) are 1-D tensors with one entry per index
#   along dimension `axis` of `x` (negative `axis` counts from the end), and the result equals
#   `torch.quantize_per_channel(x, scale, zero_point, axis, ...).int_repr()`.
# * `dequantize(q, scale, zero_point, axis=None)` returns the float32 tensor `(q - zero_point) * scale`, per tensor
#   or per channel as above, equal to PyTorch's `dequantize()` of the quantized tensor.
# * Both take tensors of any shape and memory layout (zero-size and 0-dim included) and leave their inputs
#   unchanged.
# * Every tensor you create is on the input's device (`device=x.device`), so both run on a GPU as on the CPU.

# %% [solution] id=quant_impl
def _broadcast(t, axis, ndim):
    """A per-channel parameter shaped to broadcast along `axis` of an ndim-dimensional tensor."""
    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)


def quantize(x, scale, zero_point, dtype, axis=None):
    """Affine quantization of float32 x to int8 or uint8 levels, per tensor or per channel."""
    ### BEGIN SOLUTION
    info = torch.iinfo(dtype)
    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)
    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=x.device)
    if axis is not None:
        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())
    inv = 1.0 / scale
    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)
    ### END SOLUTION


def dequantize(q, scale, zero_point, axis=None):
    """(q - zero_point) * scale in float32, per tensor or per channel."""
    ### BEGIN SOLUTION
    scale = torch.as_tensor(scale, dtype=torch.float32, device=q.device)
    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=q.device)
    if axis is not None:
        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())
    return (q.to(torch.int64) - zero_point).to(torch.float32) * scale
    ### END SOLUTION


# %% [tests] id=quant_tests points=4
_x = torch.randn(4, 6) * 2
expect_equal(quantize(_x, 0.02, 3, torch.int8), torch_quantize(_x, 0.02, 3, torch.int8),
             "quantize(x, 0.02, 3, torch.int8) for x (4, 6)")
expect_equal(quantize(_x, 0.05, 128, torch.uint8), torch_quantize(_x, 0.05, 128, torch.uint8),
             "quantize(x, 0.05, 128, torch.uint8) for x (4, 6)")
expect_equal(quantize(torch.tensor([0.25, 0.75, -0.25]), 0.5, 0, torch.int8), torch.tensor([0, 2, 0], dtype=torch.int8),
             "quantize([0.25, 0.75, -0.25], 0.5, 0, torch.int8) (halves go to the even level)")
_s, _z = torch.tensor([0.01, 0.02, 0.05, 0.1]), torch.tensor([0, 10, -5, 3])
expect_equal(quantize(_x, _s, _z, torch.int8, axis=0), torch_quantize(_x, _s, _z, torch.int8, axis=0),
             "quantize(x, scales (4,), zero points (4,), torch.int8, axis=0)")
_q = quantize(_x, 0.02, 3, torch.int8)
expect_close(dequantize(_q, 0.02, 3), (_q.float() - 3) * 0.02, "dequantize(q, 0.02, 3)")
### BEGIN HIDDEN TESTS
run_hidden("16-05", "quant", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Observers: choosing the scale from the data
#
# A quantizer is only as good as its range. An **observer** is a module that sits where a tensor flows,
# records the smallest and largest value it has seen, and turns that range into a scale and a zero point.
# PyTorch's eager observers (`torch.ao.quantization.observer`) differ in two choices:
#
# * **Running minimum or moving average.** `MinMaxObserver` keeps the extremes of everything it has seen.
#   `MovingAverageMinMaxObserver` lets the first batch set them and then moves them a fraction `c` (the
#   `averaging_constant`, 0.01 by default) towards each new batch's extremes: `min_val += c * (x_min - min_val)`.
#   During training, activations drift, and a single outlier batch should not widen the range for ever.
# * **Affine or symmetric.** An affine scheme maps the observed range `[lo, hi]` onto all the levels. It first
#   widens the range to contain 0 (`lo = min(min_val, 0)`, `hi = max(max_val, 0)`), so that 0 is exactly
#   representable, then `scale = (hi - lo) / (qmax - qmin)` and `zero_point = qmin - round(lo / scale)`, clamped
#   to the levels. A symmetric scheme centres the range on 0, `scale = max(-lo, hi) / ((qmax - qmin) / 2)`, with a
#   fixed zero point (0 for `int8`, 128 for `uint8`): it wastes levels on a one-sided range, but the zero
#   point vanishes from the integer kernels, which is why weights use it.
#
# A range of width zero (a tensor of zeros) would give a scale of 0 and an infinite inverse, so PyTorch never
# lets the scale fall below `torch.finfo(torch.float32).eps`. Per channel, all of this runs once per index along
# `ch_axis`, on the slice at that index.

# %%
from torch.ao.quantization.observer import MinMaxObserver, MovingAverageMinMaxObserver

_obs = MinMaxObserver(dtype=torch.quint8)
_avg = MovingAverageMinMaxObserver(dtype=torch.quint8, averaging_constant=0.1)
for _batch in (torch.randn(1000), torch.randn(1000) * 10, torch.randn(1000)):
    _obs(_batch)
    _avg(_batch)
print("min-max:        range", (_obs.min_val.item(), _obs.max_val.item()), "qparams", _obs.calculate_qparams())
print("moving average: range", (_avg.min_val.item(), _avg.max_val.item()), "qparams", _avg.calculate_qparams())

# %% [markdown]
# ### Exercise 2 · `RangeObserver` (4 points)
#
# Write it from tensor operations, without PyTorch's observers.
#
# * `RangeObserver(dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None)` is an `nn.Module`
#   that proposes quantization parameters for `dtype`, `torch.uint8` (levels 0 to 255) or `torch.int8` (-128 to
#   127).
# * `forward(x)` returns `x` itself and records the smallest and largest value of the float32 tensor `x` (of any
#   shape and memory layout) in the attributes `min_val` and `max_val`, float32 tensors: over the whole tensor (0-dim) when `ch_axis` is None,
#   otherwise one value per index along dimension `ch_axis` (shape `(C,)`; negative `ch_axis` counts from the
#   end of each `x`, so one observer takes tensors of different ranks, `(N, C)` then `(N, T, C)`; per channel `x`
#   has at least two dimensions, as PyTorch's per-channel observers require).
# * With `averaging_constant=None`, `min_val` and `max_val` are the extremes over every tensor observed so far.
# * With a float `averaging_constant` `c`, the first tensor sets them and each later one moves them:
#   `min_val + c * (x_min - min_val)`, likewise for `max_val`. Other float32 forms of this update (`torch.lerp`,
#   `(1 - c) * min_val + c * x_min`) differ from it only in the last bits, and count as equal here.
# * An empty tensor changes nothing, and recording never builds an autograd graph.
# * `min_val` and `max_val` hold the values seen, not views of `x`: changing `x` in place afterwards leaves them as
#   they were.
# * Every tensor it creates is on `x`'s device, so it runs on a GPU as on the CPU.
# * `calculate_qparams()` returns `(scale, zero_point)`, a float32 tensor and an integer tensor (int32 or int64), of
#   shape `(1,)` per tensor or `(C,)` per channel, computed in float32 by the affine or symmetric formulas above
#   with the eps floor (the zero point divides, `round(lo / scale)`, where exercise 1 multiplies by the inverse).
# * So the result equals that of PyTorch's observer of the same kind (`MinMaxObserver`, `PerChannelMinMaxObserver`,
#   `MovingAverageMinMaxObserver`, `MovingAveragePerChannelMinMaxObserver`) given `torch.quint8` or `torch.qint8`
#   and the `qscheme` `per_tensor_affine`, `per_channel_affine` or their `_symmetric` twins.

# %% [solution] id=observer_impl
class RangeObserver(nn.Module):
    """Records the range of the tensors it sees and proposes (scale, zero_point) for int8 or uint8."""

    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        ### BEGIN SOLUTION
        info = torch.iinfo(dtype)
        self.qmin, self.qmax, self.dtype = info.min, info.max, dtype
        self.symmetric, self.ch_axis, self.c = symmetric, ch_axis, averaging_constant
        self.min_val = self.max_val = None
        ### END SOLUTION

    def forward(self, x):
        ### BEGIN SOLUTION
        if x.numel() == 0:
            return x
        y = x.detach().to(torch.float32)
        if self.ch_axis is None:
            lo, hi = torch.aminmax(y)
        else:
            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)
        if self.min_val is None:
            self.min_val, self.max_val = lo, hi
        elif self.c is None:
            self.min_val, self.max_val = torch.minimum(self.min_val, lo), torch.maximum(self.max_val, hi)
        else:
            self.min_val = self.min_val + self.c * (lo - self.min_val)
            self.max_val = self.max_val + self.c * (hi - self.max_val)
        return x
        ### END SOLUTION

    def calculate_qparams(self):
        ### BEGIN SOLUTION
        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)
        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)
            zero_point = torch.full_like(scale, 128 if self.dtype == torch.uint8 else 0, dtype=torch.int64)
        else:
            scale = torch.clamp((hi - lo) / float(self.qmax - self.qmin), min=eps)
            zero_point = torch.clamp(self.qmin - torch.round(lo / scale).to(torch.int64), self.qmin, self.qmax)
        return scale, zero_point
        ### END SOLUTION


# %% [tests] id=observer_tests points=4
from torch.ao.quantization.observer import PerChannelMinMaxObserver

_xs = [torch.randn(3, 5) * 2, torch.randn(3, 5) + 1]
_mine, _ref = RangeObserver(torch.uint8), MinMaxObserver(dtype=torch.quint8)
for _t in _xs:
    expect(_mine(_t) is _t, "RangeObserver(torch.uint8)(x) returns x itself")
    _ref(_t)
expect_close(_mine.min_val, _ref.min_val, "min_val after two tensors")
expect_close(_mine.calculate_qparams()[0], _ref.calculate_qparams()[0], "the scale of RangeObserver(torch.uint8)")
expect_equal(_mine.calculate_qparams()[1], _ref.calculate_qparams()[1], "the zero point of RangeObserver(torch.uint8)")
_mine = RangeObserver(torch.int8, symmetric=True, ch_axis=1)
_ref = PerChannelMinMaxObserver(ch_axis=1, dtype=torch.qint8, qscheme=torch.per_channel_symmetric)
_mine(_xs[0])
_ref(_xs[0])
expect_close(_mine.calculate_qparams()[0], _ref.calculate_qparams()[0],
             "the scales of RangeObserver(torch.int8, symmetric=True, ch_axis=1)")
### BEGIN HIDDEN TESTS
run_hidden("16-05", "observer", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Fake quantization and the straight-through estimator
#
# To train a model that will run in int8, put the rounding into the forward pass while keeping float tensors:
# **fake quantization** computes `dequantize(quantize(x))`, a float tensor whose values lie on the int8 grid.
# The network then learns weights that survive the rounding (quantization-aware training, QAT).
#
# The trouble is the backward pass: `round` is flat almost everywhere, so its true derivative is 0 and nothing
# would learn. The **straight-through estimator** (STE) pretends the rounding is the identity: the gradient passes
# through unchanged, except where the value was clamped, since there the output really does not move with the
# input. PyTorch's `torch.fake_quantize_per_tensor_affine` keeps a mask of the elements whose level
# `round(x * inv) + z` lay inside `[quant_min, quant_max]` and multiplies the incoming gradient by it. Note that the
# mask looks at the *rounded* level: an `x` just past the last level that rounds back onto it still passes its
# gradient.
#
# The usual way to write it is a `torch.autograd.Function` (module 15-01) whose forward saves the mask; an
# alternative is the detach trick: the values of `fq(x)` plus a term that is zero in value and passes the gradient
# where the mask holds, `fq(x).detach() + torch.where(mask, x - x.detach(), 0)` (a product with the mask, `x * mask`,
# would be `nan` at an infinite `x`, since `inf * 0` is `nan`).

# %%
_x = torch.linspace(-1.5, 1.5, 13, requires_grad=True)
_y = torch.fake_quantize_per_tensor_affine(_x, 0.25, 0, -4, 3)
_y.sum().backward()
print("x:      ", [round(v, 2) for v in _x.tolist()])
print("fq(x):  ", _y.tolist())
print("dfq/dx: ", _x.grad.tolist())

# %% [markdown]
# ### Exercise 3 · `fake_quantize` (3 points)
#
# Write it without PyTorch's quantize or fake-quantize functions, and without an operator of your own registered
# with `torch.library`.
#
# * `fake_quantize(x, scale, zero_point, quant_min, quant_max)` takes a float32 tensor `x`, a Python float `scale`
#   and Python ints, and returns the float32 tensor `(clamp(round(x * inv) + zero_point, quant_min, quant_max) -
#   zero_point) * scale` of `x`'s shape, with `inv` and `round` as in exercise 1. This holds for every float32
#   value but `nan` (which no check sends: `torch.clamp` keeps a `nan`, PyTorch's kernel gives `quant_min`'s value):
#   far outside the range, `+inf` and `-inf` included, the result is the end of the range (a finite number).
#   Where the level is the zero point the result is `+0.0`, for `x = -0.0` and small negative `x` too (never `-0.0`:
#   the zero point is added and subtracted, and PyTorch's kernel subtracts integers).
# * Any integer range works, not only the 8-bit ones (for example `-8, 7` for 4 bits), and the result equals
#   `torch.fake_quantize_per_tensor_affine(x, scale, zero_point, quant_min, quant_max)`.
# * The gradient with respect to `x` is the straight-through estimator: the incoming gradient passes unchanged where
#   `quant_min <= round(x * inv) + zero_point <= quant_max` and is zero elsewhere, as PyTorch's backward.
# * The mask is the forward pass's: if `x` is changed in place between the forward and the backward, the gradient
#   still follows the levels `x` had in the forward (or autograd reports the change), never the new values.
# * `x` is left unchanged, and every tensor you create is on `x`'s device.

# %% [solution] id=fake_quant_impl
class _FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        ### BEGIN SOLUTION
        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)
        level = torch.round(x * inv) + zero_point
        inside = (level >= quant_min) & (level <= quant_max)
        ctx.save_for_backward(inside)
        return (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(
            scale, dtype=torch.float32, device=x.device)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad):
        ### BEGIN SOLUTION
        (inside,) = ctx.saved_tensors
        return grad * inside, None, None, None, None
        ### END SOLUTION


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    """dequantize(quantize(x)) on the grid [quant_min, quant_max], with the straight-through gradient."""
    ### BEGIN SOLUTION
    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)
    ### END SOLUTION


# %% [tests] id=fake_quant_tests points=3
_x = (torch.randn(5, 7) * 2).requires_grad_(True)
_x2 = _x.detach().clone().requires_grad_(True)
_mine = fake_quantize(_x, 0.03, 5, -128, 127)
_ref = torch.fake_quantize_per_tensor_affine(_x2, 0.03, 5, -128, 127)
expect_close(_mine, _ref, "fake_quantize(x, 0.03, 5, -128, 127) for x (5, 7)")
_g = torch.randn(5, 7)
_mine.backward(_g)
_ref.backward(_g)
expect_close(_x.grad, _x2.grad, "the gradient of fake_quantize(x, 0.03, 5, -128, 127) (zero where clamped)")
expect_close(fake_quantize(torch.tensor([-9.0, 0.5, 9.0]), 1.0, 0, -8, 7), torch.tensor([-8.0, 0.0, 7.0]),
             "fake_quantize([-9, 0.5, 9], 1.0, 0, -8, 7)")
### BEGIN HIDDEN TESTS
run_hidden("16-05", "fake_quant", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. An integer kernel
#
# Write a real input as $x = s_x (q_x - z_x)$ and a weight row as $w_m = s_{w,m}\, q_{w,m}$ (symmetric per output
# channel, zero point 0). Then one output of a linear layer is
#
# $$y_{m} = \sum_k x_k w_{m,k} + b_m = s_x s_{w,m} \underbrace{\sum_k (q_{x,k} - z_x)\, q_{w,m,k}}_{\text{integers only}}
#  + b_m .$$
#
# The whole inner loop runs on integers, and the floats appear once per output, at the end. This is what
# int8 kernels (fbgemm, oneDNN, cuBLAS's int8 GEMM) do, with two cautions:
#
# * **The accumulator.** A product of a `uint8` and an `int8` level is up to $255 \cdot 128 \approx 2^{15}$, and
#   the sum over `K` inputs grows with `K`, so the sum needs 32 bits: kernels accumulate in **int32**. In `int8`
#   or `int16` it would overflow after a handful of terms, and in float32 it would lose exactness once the sum
#   passes $2^{24}$.
# * **Unsigned arithmetic wraps.** `qx - zx` computed on `uint8` tensors wraps around below 0 (`3 - 5 = 254`):
#   convert to a wider signed type first.
#
# The result is usually quantized again (**requantized**) to `uint8` with the next layer's input parameters,
# `out_scale` and `out_zero_point`, so that the next integer kernel can consume it.

# %%
_qa = torch.tensor([3, 200], dtype=torch.uint8)
print("uint8 3 - 5 =", (_qa - 5)[0].item(), " int32:", (_qa.to(torch.int32) - 5)[0].item())
print("int16 overflow: 255 * 127 * 2 =", (torch.tensor([255 * 127], dtype=torch.int16) * 2).item())

# %% [markdown]
# ### Exercise 4 · `quantized_linear` (4 points)
#
# Write it from tensor operations (no `torch.ao` quantized modules or ops).
#
# * `quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point)` takes `uint8`
#   activations `qx` of shape `(..., K)` quantized per tensor (`x_scale` a Python float, `x_zero_point` a Python
#   int), an `int8` weight `qw` of shape `(M, K)` quantized per output channel with zero point 0 (`w_scale` a
#   float32 tensor `(M,)`), a float32 `bias` `(M,)` or None, and the output's `out_scale` (float) and
#   `out_zero_point` (int).
# * It multiplies in integers: `acc = (qx - x_zero_point) @ qw.T` with both operands and the result in int32,
#   and no floating-point matrix product.
# * Then `y = acc * (x_scale * w_scale) + bias` in float32, requantized like your `quantize` with `out_scale`,
#   `out_zero_point` and `torch.uint8`: the result is a `uint8` tensor of shape `(..., M)` (a zero-size batch
#   included: `(0, K)` gives `(0, M)`).
# * So it lies within one level of `quantize(F.linear(dequantize(qx, ...), dequantize(qw, ...), bias), out_scale,
#   out_zero_point, torch.uint8)`, for any levels (0 and 255, -128 and 127 included) and any `K` (thousands too).
# * Every tensor you create is on `qx`'s device. (PyTorch has no int32 matrix product on CUDA: there `@` on int32
#   tensors raises "addmm_cuda not implemented for 'Int'", so this exercise runs and is graded on the CPU; GPU int8
#   kernels come from `torch._int_mm` or a compiled backend, beyond this notebook.)

# %% [solution] id=qlinear_impl
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    """uint8 activations times an int8 per-channel weight, accumulated in int32, requantized to uint8."""
    ### BEGIN SOLUTION
    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T
    y = acc.to(torch.float32) * (x_scale * w_scale.to(torch.float32))
    if bias is not None:
        y = y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
    ### END SOLUTION


# %% [tests] id=qlinear_tests points=4
_qx = torch.randint(0, 256, (3, 16), dtype=torch.uint8)
_qw = torch.randint(-128, 128, (5, 16), dtype=torch.int8)
_ws, _b = torch.rand(5) * 0.01 + 0.001, torch.randn(5)
_got = quantized_linear(_qx, 0.02, 120, _qw, _ws, _b, 0.05, 100)
expect_equal(_got.dtype, torch.uint8, "the dtype of quantized_linear(...)")
_want = quantize(F.linear((_qx.float() - 120) * 0.02, _qw.float() * _ws[:, None], _b), 0.05, 100, torch.uint8)
expect(bool(((_got.int() - _want.int()).abs() <= 1).all()),
       "quantized_linear(qx (3, 16), 0.02, 120, qw (5, 16), w_scale, bias, 0.05, 100) within one level of the "
       "float computation")
### BEGIN HIDDEN TESTS
run_hidden("16-05", "qlinear", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Quantization-aware training
#
# Quantizing a trained float model after the fact (post-training quantization) often costs a few points of
# accuracy, more for small models and low bit widths. Quantization-aware training (QAT) closes most of the gap:
# during training, every layer sees its input and its weight through fake quantization, with the parameters the
# deployed int8 model will use, and the straight-through estimator lets the float weights move to where the
# rounded network works well. `torch.ao.quantization.prepare_qat` does this by swapping each `nn.Linear` for
# `torch.ao.nn.qat.Linear`, which carries a `FakeQuantize` module (an observer plus fake quantization) for the
# weight and one for the activations.
#
# The parameters come from observers: activations through a moving-average observer, which keeps adapting while
# training runs and stops when the model is put in eval mode (then the learned range is frozen, as the int8
# model will have it); weights through a symmetric min-max observer of their current values, since they change
# at every step. After training, `QATLinear`'s weight and its observer's range give exactly the `qw`, `w_scale`,
# `x_scale` and `x_zero_point` that `quantized_linear` needs.

# %% [markdown]
# ### Exercise 5 · `QATLinear` (4 points)
#
# Build it on your `RangeObserver` and `fake_quantize` (not on `torch.ao.nn.qat`, PyTorch's observers or its
# fake-quantize functions).
#
# * `QATLinear(in_features, out_features, bias=True)` is a subclass of `nn.Linear` with the same parameters
#   (`weight`, and `bias` unless `bias=False`) and an attribute `act_observer`, a
#   `RangeObserver(torch.uint8, averaging_constant=0.01)`.
# * In training mode, `forward(x)` first lets `act_observer` watch `x`, then returns `F.linear(fake_quantize(x, s_x,
#   z_x, 0, 255), fake_quantize(weight, s_w, 0, -128, 127), bias)`.
# * Here `(s_x, z_x)` is `act_observer.calculate_qparams()` and `s_w` the scale from a fresh
#   `RangeObserver(torch.int8, symmetric=True)` that has watched the current weight once.
# * In eval mode, `forward` does the same without updating `act_observer`.
# * Gradients reach `x`, the weight and the bias through the straight-through estimator of your `fake_quantize`
#   (the scales and zero points are constants for autograd).
# * Every tensor it creates is on `x`'s device (the weight's), so it runs on a GPU as on the CPU.
# * The grader trains `nn.Sequential(QATLinear(784, 64), nn.ReLU(), QATLinear(64, 10))` and the same model made of
#   `nn.Linear`, from the same initial weights, with the same SGD steps on the stand-in FashionMNIST images, and
#   expects the quantization-aware model's test accuracy (in eval mode) to be at most 5 points below the float
#   model's.

# %% [solution] id=qat_impl
class QATLinear(nn.Linear):
    """nn.Linear that sees its input (uint8, observed) and its weight (int8, symmetric) through fake quantization."""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        ### BEGIN SOLUTION
        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)
        ### END SOLUTION

    def forward(self, x):
        ### BEGIN SOLUTION
        if self.training:
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        w_obs = RangeObserver(torch.int8, symmetric=True)
        w_obs(self.weight)
        s_w, _ = w_obs.calculate_qparams()
        x_fq = fake_quantize(x, float(s_x), int(z_x), 0, 255)
        w_fq = fake_quantize(self.weight, float(s_w), 0, -128, 127)
        return F.linear(x_fq, w_fq, self.bias)
        ### END SOLUTION


# %% [tests] id=qat_tests points=4
_lin = QATLinear(6, 3)
expect(isinstance(_lin, nn.Linear) and isinstance(_lin.act_observer, RangeObserver),
       "QATLinear(6, 3) is an nn.Linear with a RangeObserver act_observer")
_x = torch.randn(4, 6)
_out = _lin(_x)
_s, _z = _lin.act_observer.calculate_qparams()
_sw = _lin.weight.detach().abs().max() / 127.5
_want = F.linear(torch.fake_quantize_per_tensor_affine(_x, float(_s), int(_z), 0, 255),
                 torch.fake_quantize_per_tensor_affine(_lin.weight, float(_sw), 0, -128, 127), _lin.bias)
expect_close(_out, _want, "QATLinear(6, 3)(x) in training mode for x (4, 6)")
_out.sum().backward()
expect(_lin.weight.grad is not None and _lin.bias.grad is not None, "gradients reach QATLinear's weight and bias")
### BEGIN HIDDEN TESTS
run_hidden("16-05", "qat", globals())
### END HIDDEN TESTS

# %% [markdown]
# The demo trains the float model and its QAT twin side by side for a few hundred steps on the stand-in (or the
# real) FashionMNIST, then runs the trained QAT model as a true integer network: each layer's weight is quantized
# once with its symmetric scale, its input with the observer's frozen range, and `quantized_linear` does the rest.

# %%
if run_demos():
    from tqdm.auto import tqdm

    from course.student.data import load

    def tensors_of(ds, n):
        xs, ys = zip(*(ds[i] for i in range(min(n, len(ds)))))
        return torch.stack(xs).reshape(len(xs), -1), torch.tensor(ys)

    _X, _y = tensors_of(load("fashionmnist", train=True), 6000)
    _Xt, _yt = tensors_of(load("fashionmnist", train=False), 1000)

    def accuracy(model, x, y):
        model.eval()
        with torch.no_grad():
            return (model(x).argmax(1) == y).float().mean().item()

    torch.manual_seed(0)
    float_model = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
    qat_model = nn.Sequential(QATLinear(784, 64), nn.ReLU(), QATLinear(64, 10))
    qat_model.load_state_dict(float_model.state_dict(), strict=False)
    for model in (float_model, qat_model):
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        g = torch.Generator().manual_seed(1)
        model.train()
        for _ in tqdm(range(600), desc=type(model[0]).__name__):
            idx = torch.randint(0, len(_X), (64,), generator=g)
            loss = F.cross_entropy(model(_X[idx]), _y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    print("float accuracy:", accuracy(float_model, _Xt, _yt), " QAT accuracy:", accuracy(qat_model, _Xt, _yt))

    def int8_forward(model, x):
        """The trained QAT model on integers: weights quantized once per channel, activations kept as uint8 levels."""
        first, last = model[0], model[2]

        def weight_levels(layer):
            s_w = layer.weight.detach().abs().amax(dim=1).clamp(min=1e-8) / 127.5
            zeros = torch.zeros_like(s_w, dtype=torch.int64)
            return quantize(layer.weight.detach(), s_w, zeros, torch.int8, axis=0), s_w

        s1, z1 = (v.item() for v in first.act_observer.calculate_qparams())
        s2, z2 = (v.item() for v in last.act_observer.calculate_qparams())
        (q1, w1), (q2, w2) = weight_levels(first), weight_levels(last)
        h = quantized_linear(quantize(x, s1, int(z1), torch.uint8), s1, int(z1), q1, w1, first.bias.detach(), s2, int(z2))
        h = torch.maximum(h, torch.tensor(int(z2), dtype=torch.uint8))  # ReLU on levels: nothing below the zero point
        return quantized_linear(h, s2, int(z2), q2, w2, last.bias.detach(), 0.1, 128)  # logits as levels

    print("int8 kernels accuracy:", (int8_forward(qat_model, _Xt).argmax(1) == _yt).float().mean().item())

# %% [markdown]
# ## What to remember
#
# * A quantized tensor is integers plus a scale and a zero point; bit-exact agreement with a library depends on
#   its rounding (halves to even), its arithmetic (multiply by a float32 inverse) and clamping, not wrapping.
# * Observers choose the range: running extremes or a moving average, affine for one-sided activations,
#   symmetric (zero point fixed) for weights, per channel where rows differ in size.
# * Fake quantization puts the rounding into training; the straight-through estimator passes gradients through
#   it, except where values were clamped.
# * Integer kernels subtract zero points in a wide signed type, accumulate in int32 and touch floats once per
#   output.
# * Quantization-aware training trains through the rounding the deployed model will do, so the integer model it
#   leaves behind loses little accuracy against its float twin.
