# %% [markdown]
# # 15-01 · Custom autograd Functions and hooks
#
# Every tensor operation you run with `requires_grad=True` leaves a node in a graph that autograd walks
# backwards when you call `.backward()`. Most of the time PyTorch writes those nodes for you. In this
# notebook you write them yourself, and you learn to listen in on the graph while it runs.
#
# **You will build**
# 1. `ScaledMul`: a `torch.autograd.Function` with correct gradients for broadcast inputs, a non-tensor
#    argument and `ctx.needs_input_grad`.
# 2. `StableSoftplus`: a Function whose forward *and* backward survive inputs like ±1000.
# 3. `LogCosh` (twice differentiable) and `Clamp` (explicitly `once_differentiable`).
# 4. `capture_activations`: forward hooks that record intermediate activations and always clean up.
# 5. `attach_grad_clipping`: post-accumulate-grad hooks that clip each parameter's gradient.
# 6. A "what breaks" exercise: the version counter that protects tensors saved for backward.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same functions much harder: random float64 inputs of
# many shapes, broadcasting, non-contiguous tensors, extreme values, and comparisons with PyTorch's own
# operators. Heavy demos below only run when you run the notebook yourself. Keep the `def` and `class` lines of
# the skeletons as they are (the parameters' names, their order and their defaults): a hidden check compares
# them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from course.student.checks import expect, expect_close, expect_equal, expect_gradcheck, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 1. What a `Function` is
#
# A `torch.autograd.Function` is a pair of static methods:
#
# * `forward(ctx, *inputs)` computes the output from plain tensors (autograd is *off* inside it), and may
#   stash whatever backward needs on `ctx`: tensors through `ctx.save_for_backward(...)`, anything else
#   as attributes (`ctx.alpha = alpha`).
# * `backward(ctx, grad_output)` receives dL/d(output) and returns **one gradient per input of forward**,
#   in the same order. An input that is not a tensor, or that does not require a gradient, gets `None`.
#
# You call it with `MyFn.apply(...)`, never by instantiating it. Two details matter more than they seem:
#
# * **Broadcasting.** If `x` has shape `(3, 1)` and `y` has shape `(4,)`, the output has shape `(3, 4)`, and
#   so does `grad_output`. The gradient you return for `x` must have `x`'s shape: sum over the broadcast
#   dimensions (`Tensor.sum_to_size(x.shape)` does exactly that).
# * **`ctx.needs_input_grad`** is a tuple of booleans, one per input. If it says an input needs no gradient,
#   don't compute one: return `None`. For big layers that is real work saved.
#
# Why `save_for_backward` rather than `ctx.x = x`? Saved tensors are checked on use: if anyone modified
# them in place after forward, backward raises instead of silently using the wrong values (section 6), and
# the graph frees them correctly (attributes on `ctx` can keep memory alive in reference cycles).

# %%
class Square(torch.autograd.Function):
    """A worked example: y = x**2, dy/dx = 2x."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 2 * x * grad_out


x = torch.randn(4, dtype=torch.float64, requires_grad=True)
print("custom:", torch.autograd.grad(Square.apply(x).sum(), x)[0])
print("torch: ", 2 * x.detach())
# gradcheck compares your backward with finite differences of your forward. Use float64: in float32
# the finite differences are too noisy and correct code fails.
print("gradcheck:", torch.autograd.gradcheck(Square.apply, (x,)))

# %% [markdown]
# ### Exercise 1 · `ScaledMul` (3 points)
#
# Implement `ScaledMul.apply(x, y, alpha) = alpha * x * y` where `x` and `y` are tensors of any dtype that may
# broadcast against each other and `alpha` is a Python float (two integer tensors give a float result, as
# `alpha * x * y` does).
#
# * Return exactly three gradients: for `x`, for `y`, and `None` for `alpha`.
# * Reduce each gradient to its input's shape.
# * Honour `ctx.needs_input_grad`: return `None` (and compute nothing) for a tensor that needs no gradient.
# * Save tensors with `ctx.save_for_backward`.

# %% [solution] id=scaled_mul_impl
class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return alpha * x * y
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)
        return gx, gy, None
        ### END SOLUTION

# %% [tests] id=scaled_mul_tests points=3
_x = torch.randn(3, 1, dtype=torch.float64, requires_grad=True)
_y = torch.randn(4, dtype=torch.float64, requires_grad=True)
_out = ScaledMul.apply(_x, _y, 2.5)
expect_close(_out, 2.5 * _x * _y, "ScaledMul.apply(x, y, 2.5) with x (3, 1), y (4,)")
expect_gradcheck(lambda a, b: ScaledMul.apply(a, b, 2.5), (_x, _y), "ScaledMul.apply(x, y, 2.5)")
# y without requires_grad (ctx.needs_input_grad is (True, False, False)): x's gradient is still right
_yc = torch.randn(4, dtype=torch.float64)
(_gx,) = torch.autograd.grad(ScaledMul.apply(_x, _yc, 2.5).sum(), _x)
expect_close(_gx, (2.5 * _yc).sum().expand(3, 1), "grad of x when y does not require grad")
### BEGIN HIDDEN TESTS
run_hidden("15-01", "scaled_mul", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Numerical stability lives in backward too
#
# `softplus(x) = log(1 + exp(x))` is a smooth ReLU. Written naively it overflows: `exp(1000)` is `inf` in
# any float type, so the forward returns `inf`, and a backward written as `exp(x) / (1 + exp(x))` returns
# `inf / inf = nan`. Two identities fix both directions:
#
# * forward: `softplus(x) = max(x, 0) + log1p(exp(-|x|))`: the exponent is never positive;
# * backward: `d softplus / dx = sigmoid(x)`, and `torch.sigmoid` is already stable.
#
# Autograd would differentiate the stable forward correctly, but the point of a custom Function is often
# exactly this: to write the gradient in a form that is cheaper or more stable than what autograd derives.

# %%
def naive_softplus(x):
    return torch.log(1 + torch.exp(x))


xs = torch.tensor([-1000.0, -30.0, 0.0, 30.0, 1000.0], requires_grad=True)
y = naive_softplus(xs)
(g,) = torch.autograd.grad(y.sum(), xs)
print("naive forward:", y.detach())
print("naive grad:   ", g)
print("reference:    ", F.softplus(xs).detach(), torch.sigmoid(xs).detach())

# %% [markdown]
# ### Exercise 2 · `StableSoftplus` (3 points)
#
# Implement a Function with the stable forward above and a backward that returns
# `grad_out * sigmoid(x)`. It must match `F.softplus` (with `beta=1`) for float32 and float64 inputs
# anywhere from -1000 to 1000, with finite gradients everywhere. Keep the tensors `backward` reads with
# `ctx.save_for_backward`, not as attributes of `ctx`: an in-place change of a saved tensor between forward and
# backward then makes `backward` raise (as `F.softplus` does) instead of silently returning the gradient of the
# changed values.

# %% [solution] id=softplus_impl
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)
        ### END SOLUTION

# %% [tests] id=softplus_tests points=3
_x = torch.tensor([-1000.0, -5.0, 0.0, 5.0, 1000.0], requires_grad=True)
_y = StableSoftplus.apply(_x)
expect_close(_y, F.softplus(_x), "StableSoftplus.apply(x) for x = [-1000, -5, 0, 5, 1000]")
(_g,) = torch.autograd.grad(_y.sum(), _x)
expect_close(_g, torch.sigmoid(_x.detach()), "its gradient for x = [-1000, -5, 0, 5, 1000]")
### BEGIN HIDDEN TESTS
run_hidden("15-01", "softplus", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Differentiating twice, or refusing to
#
# `torch.autograd.grad(..., create_graph=True)` records the backward pass itself as a graph, so you can
# differentiate a gradient (Hessian-vector products, gradient penalties, meta-learning). That only works if
# your backward is made of differentiable torch operations on tensors that are part of the graph: the
# tensors from `ctx.saved_tensors` are, so `backward` can just compute with them.
#
# Some backward passes cannot be differentiated: they call into non-differentiable code, or use values
# that only exist as plain numbers. Mark those with `@torch.autograd.function.once_differentiable` (under
# `@staticmethod`): PyTorch then raises a clear error when someone tries to differentiate twice, instead
# of silently returning a wrong second derivative.
#
# `gradgradcheck` is the second-order counterpart of `gradcheck`.

# %% [markdown]
# ### Exercise 3a · `LogCosh`, twice differentiable (2 points)
#
# `log(cosh(x))` behaves like `x**2 / 2` near zero and like `|x| - log 2` far away (a robust loss). Compute it
# stably as `|x| + log1p(exp(-2|x|)) - log(2)`; its derivative is `tanh(x)`. Return `x`'s dtype (float32 in,
# float32 out), as `torch.log(torch.cosh(x))` does. Keep the input with
# `ctx.save_for_backward` (not as an attribute of `ctx`), and write `backward` with torch operations on the
# saved input so that `gradgradcheck` passes.

# %% [solution] id=logcosh_impl
class LogCosh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return grad_out * torch.tanh(x)
        ### END SOLUTION

# %% [tests] id=logcosh_tests points=2
_x = torch.randn(6, dtype=torch.float64, requires_grad=True)
expect_close(LogCosh.apply(_x), torch.log(torch.cosh(_x)), "LogCosh.apply(x) for 6 random x")
expect_gradcheck(LogCosh.apply, (_x,), "LogCosh.apply(x)", second_order=True)
### BEGIN HIDDEN TESTS
run_hidden("15-01", "logcosh", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Exercise 3b · `Clamp`, once differentiable (3 points)
#
# Implement `Clamp.apply(x, lo, hi)` (floats `lo < hi`) matching `torch.clamp(x, lo, hi)` in value and in
# gradient. Mind the kinks: at `x == lo` and `x == hi` the derivative is undefined, and PyTorch's convention
# is to pass **no** gradient there (the mask is `lo < x < hi`, strictly). Match it exactly: gradient checks
# compare values at the kinks too. `lo` and `hi` get `None`. Decorate `backward` with
# `@once_differentiable`, so that differentiating twice raises an error.

# %% [solution] id=clamp_impl
from torch.autograd.function import once_differentiable


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ### BEGIN SOLUTION
        ctx.save_for_backward((x > lo) & (x < hi))
        return x.clamp(lo, hi)
        ### END SOLUTION

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        (mask,) = ctx.saved_tensors
        # select, not multiply: an inf or NaN coming in where the mask is 0 must give 0, as in torch.clamp
        return torch.where(mask, grad_out, torch.zeros_like(grad_out)), None, None
        ### END SOLUTION

# %% [tests] id=clamp_tests points=3
_x = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
_y = Clamp.apply(_x, -1.0, 1.0)
expect_equal(_y, _x.clamp(-1.0, 1.0), "Clamp.apply(x, -1, 1) for x = [-2, -1, 0, 1, 2]")
(_g,) = torch.autograd.grad(_y.sum(), _x)
expect_equal(_g, torch.tensor([0.0, 0.0, 1.0, 0.0, 0.0], dtype=torch.float64),
             "its gradient (0 at and beyond the bounds, 1 strictly inside)")
### BEGIN HIDDEN TESTS
run_hidden("15-01", "clamp", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Forward hooks: seeing inside a model
#
# `module.register_forward_hook(fn)` calls `fn(module, inputs, output)` every time the module runs and
# returns a *handle*; `handle.remove()` detaches it. Hooks are how feature extractors, activation
# statistics and many debugging tools work without touching the model's code.
#
# Two habits separate a tool from a leak:
# * store `output.detach()` (or a clone): keeping the output itself keeps the whole autograd graph alive;
# * remove every handle, also when the forward pass raises: use `try` / `finally`.

# %%
def make_demo_net():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(16, 10))


print([name for name, _ in make_demo_net().named_modules() if name])

# %% [markdown]
# ### Exercise 4 · `capture_activations` (2 points)
#
# `capture_activations(model, names, x)` runs `model(x)` once and returns a dict mapping each requested
# submodule name (as in `model.named_modules()`) to that submodule's output, detached (`output.detach()`: an
# ordinary tensor the caller can go on using, in autograd too). Requirements:
# * raise `KeyError` for a name the model does not have, before running anything;
# * after the call, no hook you added is left on any module, even if `model(x)` raised;
# * the model's output is unchanged by your hooks, the model stays in the mode it was in
#   (`train()` or `eval()`), and the caller's list `names` is left as it was.

# %% [solution] id=capture_impl
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    ### BEGIN SOLUTION
    modules = dict(model.named_modules())
    missing = [n for n in names if n not in modules]
    if missing:
        raise KeyError(f"no submodule named {missing}")
    captured, handles = {}, []

    def make_hook(name):
        def hook(module, inputs, output):
            captured[name] = output.detach()
        return hook

    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(make_hook(n)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return captured
    ### END SOLUTION

# %% [tests] id=capture_tests points=2
_net = make_demo_net().eval()
_acts = capture_activations(_net, ["1", "4"], torch.randn(2, 1, 28, 28))
expect_equal(sorted(_acts), ["1", "4"], "the names of the captured activations")
expect_equal(tuple(_acts["1"].shape), (2, 8, 28, 28), "the shape of activation '1'")
expect(not _acts["1"].requires_grad, "captured activations are detached (requires_grad False)")
expect(all(len(m._forward_hooks) == 0 for m in _net.modules()), "every hook is removed afterwards")
### BEGIN HIDDEN TESTS
run_hidden("15-01", "forward_hooks", globals())
### END HIDDEN TESTS

# %%
# Demo: per-layer activation statistics on FashionMNIST (or its synthetic stand-in).
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    ds = load("fashionmnist", train=True)
    xb, yb = next(iter(DataLoader(ds, batch_size=256, shuffle=True)))
    net = make_demo_net()
    acts = capture_activations(net, ["1", "4", "7"], xb)
    fig, axes = plt.subplots(1, 3, figsize=(11, 3))
    for ax, (name, a) in zip(axes, acts.items()):
        ax.hist(a.flatten().numpy(), bins=60)
        ax.set_title(f"layer {name}: mean {a.mean():.3f}, {100 * (a == 0).float().mean():.0f}% zeros")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## 5. Gradient hooks: changing gradients as they flow
#
# There are three places to intercept a gradient:
#
# | hook | fires | can change |
# |---|---|---|
# | `tensor.register_hook(fn)` | when the gradient *for this tensor* is computed, before it is accumulated into `.grad` | the incoming gradient (return a new one) |
# | `module.register_full_backward_hook(fn)` | when gradients w.r.t. a module's inputs are computed | the input gradients |
# | `param.register_post_accumulate_grad_hook(fn)` | after the gradient has been **added to `param.grad`** | `param.grad` itself, in place |
#
# The difference shows up with gradient accumulation (several `backward()` calls before one optimizer step):
# a `register_hook` sees each micro-batch's gradient separately, a post-accumulate hook sees the running sum.
# Post-accumulate hooks are also how optimizers can step each parameter as soon as its gradient is ready.

# %% [markdown]
# ### Exercise 5 · `attach_grad_clipping` (3 points)
#
# `attach_grad_clipping(model, max_norm)` registers, on every parameter that requires a gradient, a
# **post-accumulate-grad hook** that rescales `param.grad` in place so its L2 norm is at most `max_norm`
# (multiply by `max_norm / norm` when `norm > max_norm`; leave it alone otherwise, also when a NaN in the
# gradient makes the norm NaN). Return the list of handles, so that removing them turns clipping off. Frozen
# parameters (`requires_grad=False`) get no hook.

# %% [solution] id=grad_clip_impl
def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    ### BEGIN SOLUTION
    def clip(p):
        norm = p.grad.norm()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)

    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]
    ### END SOLUTION

# %% [tests] id=grad_clip_tests points=3
_m = nn.Linear(5, 3)
_hs = attach_grad_clipping(_m, 0.1)
(_m(torch.randn(8, 5)) * 100).sum().backward()
for _name, _p in _m.named_parameters():
    expect(_p.grad.norm() <= 0.1 + 1e-6, f"the gradient of {_name} is clipped to norm 0.1 "
                                          f"(its norm is {float(_p.grad.norm()):.4g})")
for _h in _hs:
    _h.remove()
### BEGIN HIDDEN TESTS
run_hidden("15-01", "grad_hooks", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. What breaks: the version counter
#
# Every tensor carries a version counter that in-place operations (`add_`, `mul_`, `x[0] = ...`) increase.
# When a tensor is saved for backward, autograd records its version; if the version has changed by the
# time backward needs it, you get
#
# `RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation`
#
# `torch.exp` saves its *output* (d exp(x)/dx = exp(x)), so modifying that output in place breaks backward.
# The fix is to not modify a saved tensor: use the out-of-place version (`y = y + 1`), or clone first.
# Reaching for `.data` or `.detach()` to silence the error is the classic wrong fix: it hides the change
# from autograd and gives wrong gradients without any error.

# %% [markdown]
# ### Exercise 6 · break it, then fix it (2 points)
#
# * `run_broken(x)`: compute `y = torch.exp(x)`, add 1 to `y` **in place**, and call `backward` on
#   `y.sum()`. It must raise the version-counter `RuntimeError` (let it propagate).
# * `run_fixed(x)`: compute the same value `exp(x) + 1` without the error, call `backward` on its sum, and
#   return `x.grad`. `x` is a leaf tensor with `requires_grad=True`.

# %% [solution] id=inplace_impl
def run_broken(x: torch.Tensor) -> None:
    ### BEGIN SOLUTION
    y = torch.exp(x)
    y.add_(1)
    y.sum().backward()
    ### END SOLUTION


def run_fixed(x: torch.Tensor) -> torch.Tensor:
    ### BEGIN SOLUTION
    y = torch.exp(x) + 1
    y.sum().backward()
    return x.grad
    ### END SOLUTION

# %% [tests] id=inplace_tests points=2
expect_raises(RuntimeError, lambda: run_broken(torch.randn(3, requires_grad=True)), "run_broken(x)",
              match="inplace")
_x = torch.randn(3, dtype=torch.float64, requires_grad=True)
expect_close(run_fixed(_x), torch.exp(_x.detach()), "run_fixed(x) (the gradient of sum(exp(x) + 1))")
### BEGIN HIDDEN TESTS
run_hidden("15-01", "inplace", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 7. When do you need a custom Function?
#
# * **Yes:** the gradient you want is not the derivative of the forward (straight-through estimators,
#   gradient reversal), autograd's derivative is unstable or wasteful (softplus, log-sum-exp, fused
#   kernels that would otherwise save many intermediates), or the forward calls code autograd cannot see
#   (a CUDA/Triton kernel, NumPy, C++).
# * **No:** anything you can write as a composition of torch operations. Autograd's derivative will be
#   correct, tested and usually as fast; a custom Function is one more place for a gradient bug.
#
# Whatever you write, check it with `gradcheck` (and `gradgradcheck` if it must be twice differentiable)
# in float64, on random inputs of several shapes, including broadcast ones.

# %%
# Demo: train a small classifier whose activation is your StableSoftplus, with your clipping hooks on.
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader
    from tqdm.auto import tqdm

    from course.student.data import load

    class SoftplusAct(nn.Module):
        def forward(self, x):
            return StableSoftplus.apply(x)

    ds = load("fashionmnist", train=True)
    loader = DataLoader(ds, batch_size=128, shuffle=True)
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), SoftplusAct(), nn.Linear(128, 10)).to(DEVICE)
    handles = attach_grad_clipping(model, max_norm=1.0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    steps = min(200, len(loader))  # the synthetic stand-in has fewer batches than the real data
    for step, (xb, yb) in enumerate(tqdm(loader, total=steps, desc="training")):
        if step == steps:
            break
        loss = F.cross_entropy(model(xb.to(DEVICE)), yb.to(DEVICE))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    for h in handles:
        h.remove()
    plt.plot(losses)
    plt.xlabel("step")
    plt.ylabel("cross-entropy")
    plt.title("loss with a custom activation and clipped gradients")
    plt.show()
