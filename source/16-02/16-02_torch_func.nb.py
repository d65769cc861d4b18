# %% [markdown]
# # 16-02 · Forward-mode AD and functional transforms (torch.func)
#
# `loss.backward()` is one of two ways to differentiate a program. Reverse mode (backpropagation) runs the
# program forward, keeps what it needs, and then walks the graph backwards from one output: one pass gives
# the gradient of **one scalar** with respect to **every input**. Forward mode walks along with the program:
# every value carries a second number, its derivative along one chosen input direction, and one pass gives
# the derivative of **every output** along **one input direction**. Which one is cheaper depends on the shape
# of the Jacobian you want, and combining the two gives things neither gives alone, such as a
# Hessian-vector product for the price of a few gradients.
#
# `torch.func` (formerly functorch) adds a second idea: derivatives and batching as *transforms* of
# functions. `grad(f)` is a new function that returns the gradient of `f`; `vmap(f)` is a new function that
# runs `f` over a batch dimension as if in a loop, without the loop. Because transforms compose,
# `vmap(grad(f))` gives one gradient per example of a batch, which `backward()` cannot.
#
# **You will build**
# 1. `SiLU`: a custom `torch.autograd.Function` with a forward-mode formula (`jvp`), a reverse-mode formula
#    and the `setup_context` form that lets `vmap`, `jacfwd` and `jacrev` see through it.
# 2. `dual_jvp`: a Jacobian-vector product with dual numbers from `torch.autograd.forward_ad`.
# 3. `jacobian`: a full Jacobian by `jacfwd` or `jacrev`, whichever needs fewer passes.
# 4. `hvp`: a Hessian-vector product as forward-over-reverse, without ever forming the Hessian.
# 5. `per_sample_grads`: one gradient per example with `vmap(grad(...))` and `functional_call`.
# 6. `ensemble_forward`: many models of one architecture in one call with `stack_module_state` and `vmap`.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run right away, and
# **Validate runs only those visible checks**: "Success!" means they pass, not that you have full marks.
# When you submit, hidden checks test the same code much harder: float64 inputs of several shapes, 0-dim and
# empty tensors, extreme values, PyTorch's own derivatives, and records of which derivative formulas ran.
# Heavy demos only run when you run the notebook yourself (`run_demos()` is False while grading). Keep the `def`
# and `class` lines of the skeletons as they are (the parameters' names, their order and their defaults): a
# hidden check compares them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import torch

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()

import copy
import time

import torch.autograd.forward_ad as fwAD
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, jacfwd, jacrev, jvp, stack_module_state, vjp, vmap

_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. Dual numbers: a derivative that travels with the value
#
# Forward mode replaces each number $x$ by a pair $(x, \dot x)$, a *dual number*, where $\dot x$ is the
# derivative of $x$ along a direction you choose at the inputs (the *tangent*). Every operation maps pairs to
# pairs by the chain rule: $\sin(x, \dot x) = (\sin x, \cos x \cdot \dot x)$, and
# $(x, \dot x)\cdot(y, \dot y) = (xy, \dot x y + x \dot y)$. When the program ends, the output's tangent is the
# Jacobian-vector product $J\,t$, computed alongside the value in one pass, with nothing stored for later.
#
# PyTorch implements this in `torch.autograd.forward_ad`. Inside a `with fwAD.dual_level():` block,
# `fwAD.make_dual(x, t)` makes a tensor that carries the tangent `t`, every operation propagates tangents with
# its own forward-mode formula, and `fwAD.unpack_dual(y)` returns a named tuple `(primal, tangent)`. The
# tangent is `None` for a tensor that does not depend on any dual input. When the block ends, the level is
# closed and the tangents are gone; only one level can be open at a time.

# %%
x = torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64)
with fwAD.dual_level():
    y = torch.sin(x * x)  # d/dx sin(x^2) = 2x cos(x^2)
    print("no dual input -> tangent:", fwAD.unpack_dual(y).tangent)
    y = torch.sin(fwAD.make_dual(x, torch.ones_like(x)) ** 2)
    primal, tangent = fwAD.unpack_dual(y)
print("primal :", primal)
print("tangent:", tangent)
print("by hand:", 2 * x * torch.cos(x * x))

# %% [markdown]
# ## 2. A custom Function, in both directions and under transforms
#
# A `torch.autograd.Function` gives an operation its own derivative. For reverse mode you write `backward`,
# which receives the gradient of the output and returns $J^\top g$. For forward mode you write `jvp`, which
# receives the tangent of the input and returns $J\,t$. Forward mode calls `jvp` while the forward runs, so
# it reads what it needs from `ctx` saved with `ctx.save_for_forward(...)` (values saved with
# `save_for_backward` are meant for `backward`).
#
# `torch.func` transforms need one more thing: `forward` must not take `ctx`. Instead, `forward(x)` computes
# the result and a separate staticmethod `setup_context(ctx, inputs, output)` saves what the formulas need.
# With `generate_vmap_rule = True`, `vmap` runs your `forward`, `backward` and `jvp` on batched tensors as they
# are (they are written from PyTorch operations, which already know how to batch), so `vmap`, `jacfwd` and
# `jacrev` all see through the Function. The old style, `forward(ctx, x)`, still works for `backward()`, but
# `vmap` refuses it.
#
# For SiLU, $f(x) = x\,\sigma(x)$ with $\sigma(x) = 1 / (1 + e^{-x})$, the derivative is
# $f'(x) = \sigma(x) + x\,\sigma(x)\,(1 - \sigma(x))$, so both formulas multiply by $f'(x)$, elementwise.
# If `backward` is itself written from differentiable operations, autograd can differentiate it again:
# second derivatives (and the Hessian-vector products of section 5) then work through the Function.

# %%
class _Square(torch.autograd.Function):
    """A worked example: x^2, in both directions, in the form torch.func accepts."""

    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 2 * x * t


x = torch.arange(3.0, dtype=torch.float64)
print("vmap over rows:", vmap(_Square.apply)(torch.stack([x, -x])))
print("jacfwd:", jacfwd(_Square.apply)(x).diag(), " jacrev:", jacrev(_Square.apply)(x).diag())

# %% [markdown]
# ### Exercise 1 · `SiLU` (4 points)
#
# Complete `SiLU`, a `torch.autograd.Function` for $f(x) = x\,\sigma(x)$; do not call `F.silu` or `nn.SiLU`
# inside it, nor an operator of your own registered with `torch.library` (no check can see inside one).
#
# * `SiLU.apply(x)` takes a floating-point tensor of any shape (0-dim and empty included) and returns
#   `x * torch.sigmoid(x)` with `x`'s shape, dtype and device, equal to `F.silu(x)`.
# * `forward` takes only `x` (no `ctx`), and `setup_context(ctx, inputs, output)` saves what the two formulas
#   need on that call's `ctx` (several calls may await their backward at once, each at its own `x`); with
#   `generate_vmap_rule = True`, `SiLU.apply` works under `vmap`, `grad`, `jacfwd` and `jacrev`.
# * `backward(ctx, g)` returns `g * f'(x)` and `jvp(ctx, t)` returns `t * f'(x)`, with
#   `f'(x) = s + x * s * (1 - s)` and `s = sigmoid(x)`; forward mode (dual numbers, `jvp`, `jacfwd`) uses
#   `jvp`, never `backward`.
# * `backward` and `jvp` are written from differentiable PyTorch operations on what `setup_context` saved
#   (it runs without grad: a value computed there is a constant to autograd), so that second derivatives
#   through `SiLU` (double backward, `jvp` of `grad`, `grad` of `jvp`) equal those of `F.silu`.
# * Values and derivatives stay finite for inputs as large as ±1000 in float32 and float64.

# %% [solution] id=silu_impl
class SiLU(torch.autograd.Function):
    """x * sigmoid(x) with its own reverse-mode (backward) and forward-mode (jvp) formulas."""

    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        ### BEGIN SOLUTION
        return x * torch.sigmoid(x)
        ### END SOLUTION

    @staticmethod
    def setup_context(ctx, inputs, output):
        ### BEGIN SOLUTION
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, g):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return g * (s + x * s * (1 - s))
        ### END SOLUTION

    @staticmethod
    def jvp(ctx, t):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return t * (s + x * s * (1 - s))
        ### END SOLUTION


# %% [tests] id=silu_tests points=4
_x = torch.linspace(-4, 4, 9, dtype=torch.float64)
expect_close(SiLU.apply(_x), F.silu(_x), "SiLU.apply(x) for x = linspace(-4, 4, 9)")
expect_close(jacrev(SiLU.apply)(_x), jacrev(F.silu)(_x), "jacrev(SiLU.apply)(x) (backward)")
expect_close(jacfwd(SiLU.apply)(_x), jacfwd(F.silu)(_x), "jacfwd(SiLU.apply)(x) (jvp)")
expect_close(vmap(SiLU.apply, in_dims=1)(_x.reshape(3, 3)), F.silu(_x.reshape(3, 3)).T,
             "vmap(SiLU.apply, in_dims=1) over the columns of a (3, 3) x")
### BEGIN HIDDEN TESTS
run_hidden("16-02", "silu", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Jacobian-vector products, by hand
#
# `torch.func.jvp(f, primals, tangents)` wraps the dual-number dance: it returns `(f(*primals), J t)`. Under
# the hood it does what you will write next: open a level, make each input a dual tensor with its tangent,
# run `f` once, unpack the output and close the level. One call of `f` gives the product with the whole
# Jacobian, `J` never exists, and nothing is kept for a backward pass (reverse mode must keep the
# intermediate values until `backward` runs; forward mode can free them as it goes).

# %%
def _f(a, b):
    return (a.sin() * b).sum(-1)


_a, _b = torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 3, dtype=torch.float64)
_ta, _tb = torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 3, dtype=torch.float64)
print("torch.func.jvp:", jvp(_f, (_a, _b), (_ta, _tb))[1])
print("by hand       :", (_a.cos() * _ta * _b + _a.sin() * _tb).sum(-1))

# %% [markdown]
# ### Exercise 2 · `dual_jvp` (3 points)
#
# Write `dual_jvp(f, primals, tangents)` with `torch.autograd.forward_ad` (not `torch.func.jvp`, not
# `backward` or `torch.autograd.grad`).
#
# * `primals` and `tangents` are tuples of tensors of the same length, each tangent of its primal's shape and
#   dtype; `f(*primals)` returns one tensor.
# * Return `(out, jvp_out)`: `out` is `f(*primals)` and `jvp_out` is the Jacobian of `f` at the primals applied
#   to the tangents (what `torch.func.jvp` returns), both plain tensors (no tangents) of the output's shape;
#   `out` keeps the autograd graph that `f(*primals)` has (do not detach it).
# * Call `f` exactly once, on dual tensors that carry the tangents (also when every tangent is zero), in the
#   caller's grad mode: `f` may differentiate its own inputs (forward-over-reverse by hand), as in `f(*primals)`.
# * When the output does not depend on the primals (its tangent is `None`), `jvp_out` is a tensor of zeros of
#   the output's shape, dtype and device.
# * Leave no dual level open when you return, also when `f` raises (its exception reaches the caller).

# %% [solution] id=dual_jvp_impl
def dual_jvp(f, primals, tangents):
    """(f(*primals), J_f(primals) @ tangents), by one forward pass on dual tensors."""
    ### BEGIN SOLUTION
    with fwAD.dual_level():
        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
        out, tangent = fwAD.unpack_dual(f(*duals))
        if tangent is None:
            tangent = torch.zeros_like(out)
    return out, tangent
    ### END SOLUTION


# %% [tests] id=dual_jvp_tests points=3
_out, _jv = dual_jvp(_f, (_a, _b), (_ta, _tb))
_want = jvp(_f, (_a, _b), (_ta, _tb))
expect_close(_out, _want[0], "the first result of dual_jvp(f, (a, b), (ta, tb)), f(a, b) = (a.sin() * b).sum(-1)")
expect_close(_jv, _want[1], "the second result of dual_jvp(f, (a, b), (ta, tb))")
expect_close(dual_jvp(lambda a: torch.ones(2), (_a,), (_ta,))[1], torch.zeros(2),
             "dual_jvp of a function whose output ignores its input")
### BEGIN HIDDEN TESTS
run_hidden("16-02", "dual_jvp", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Whole Jacobians: forward or reverse?
#
# For `f` from $n$ inputs to $m$ outputs, forward mode gives one **column** of the $m \times n$ Jacobian per
# pass (a `jvp` with a basis vector $e_j$ as tangent), reverse mode one **row** per pass (a `vjp` with $e_i$).
# `torch.func.jacfwd(f)` runs the $n$ `jvp`s, and `torch.func.jacrev(f)` the $m$ `vjp`s, each batched into one
# call by `vmap`. So `jacfwd` wins when the Jacobian is tall ($m > n$: few inputs, many outputs) and `jacrev`
# when it is wide ($m < n$: the usual case of a loss, $m = 1$). `jacrev` also keeps the forward pass's
# intermediate values for its vjps, so it needs more memory than `jacfwd` for the same function.
#
# The demo below times both for a fixed function of $n$ inputs and $m$ outputs, as the shape goes from wide to
# tall (run it yourself: it takes a few seconds).

# %%
if run_demos():
    import matplotlib.pyplot as plt
    from tqdm.auto import tqdm

    def timed(fn, *args, reps=5):
        fn(*args)
        t0 = time.perf_counter()
        for _ in range(reps):
            fn(*args)
        return (time.perf_counter() - t0) / reps * 1e3

    total = 4096
    ns = [16, 64, 256, 1024, 2048]
    fwd_ms, rev_ms = [], []
    for n in tqdm(ns, desc="jacfwd vs jacrev"):
        m = total // n * 4
        W = torch.randn(m, n, dtype=torch.float64) / n ** 0.5

        def net(x, W=W):
            return torch.tanh(W @ torch.tanh(x)) ** 2

        x = torch.randn(n, dtype=torch.float64)
        fwd_ms.append(timed(jacfwd(net), x))
        rev_ms.append(timed(jacrev(net), x))
    labels = [f"n={n}\nm={total // n * 4}" for n in ns]
    plt.figure(figsize=(7, 3.5))
    plt.plot(labels, fwd_ms, "o-", label="jacfwd (one jvp per input)")
    plt.plot(labels, rev_ms, "s-", label="jacrev (one vjp per output)")
    plt.yscale("log")
    plt.ylabel("ms per Jacobian")
    plt.title("tall Jacobians (m > n) favour jacfwd, wide ones jacrev")
    plt.legend()
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 3 · `jacobian` (3 points)
#
# Write `jacobian(f, x)` with `torch.func.jacfwd` and `torch.func.jacrev`.
#
# * `x` is a floating-point tensor of any shape with at least one element (0-dim included) and `f(x)` returns
#   one tensor of any shape, of `x`'s dtype.
# * Return the Jacobian of `f` at `x`, of shape `f(x).shape + x.shape` and on `x`'s device, equal to
#   `torch.autograd.functional.jacobian(f, x)`.
# * Use forward mode (`jacfwd`) when `x` has fewer elements than `f(x)` and reverse mode (`jacrev`) otherwise
#   (ties included); you may call `f` once more, on `x` itself, to learn the size of its output, leaving grad
#   mode and every other global setting as it was, also when `f` raises.

# %% [solution] id=jacobian_impl
def jacobian(f, x):
    """The Jacobian of f at x, shape f(x).shape + x.shape, by the cheaper of jacfwd and jacrev."""
    ### BEGIN SOLUTION
    with torch.no_grad():
        n_out = f(x).numel()
    if x.numel() < n_out:
        return jacfwd(f)(x)
    return jacrev(f)(x)
    ### END SOLUTION


# %% [tests] id=jacobian_tests points=3
_x = torch.randn(3, dtype=torch.float64)
expect_close(jacobian(lambda x: torch.outer(x, x).sin(), _x),
             torch.autograd.functional.jacobian(lambda x: torch.outer(x, x).sin(), _x),
             "jacobian(f, x) for x (3,) and f(x) = outer(x, x).sin() of shape (3, 3)")
expect_close(jacobian(lambda x: (x ** 3).sum(), _x), 3 * _x ** 2, "jacobian(f, x) for f(x) = (x ** 3).sum()")
### BEGIN HIDDEN TESTS
run_hidden("16-02", "jacobian", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Hessian-vector products: forward over reverse
#
# The Hessian of a scalar function of $n$ inputs has $n^2$ entries: a model with a million parameters has a
# Hessian of $10^{12}$ numbers, which nobody stores. Many methods (Newton-CG, curvature estimates, influence
# functions) only need its product with a vector, $H v$. Since $H$ is the Jacobian of the gradient,
# $H v$ is a Jacobian-vector product **of the gradient function**:
#
# $$H v = \frac{d}{d\varepsilon} \nabla f(x + \varepsilon v) \Big|_{\varepsilon = 0}
#       = \texttt{jvp}(\texttt{grad}(f), (x,), (v,))[1].$$
#
# That is *forward-over-reverse*: reverse mode inside for the gradient, forward mode outside for the
# directional derivative of that gradient. Its cost is a small constant times one gradient, and its memory
# that of one backward pass. Reverse-over-reverse (`grad` of `<grad f, v>`) gives the same numbers, but it
# runs backward through a backward pass, keeping both graphs. The cell below checks the identity against the
# full Hessian on a small problem.

# %%
def _energy(x):
    return (x.sin() ** 2).sum() + (x[1:] * x[:-1]).sum()


_x, _v = torch.randn(5, dtype=torch.float64), torch.randn(5, dtype=torch.float64)
print("jvp(grad(f)):   ", jvp(grad(_energy), (_x,), (_v,))[1])
print("hessian(f) @ v: ", torch.autograd.functional.hessian(_energy, _x) @ _v)

# %% [markdown]
# ### Exercise 4 · `hvp` (3 points)
#
# Write `hvp(f, x, v)` as forward-over-reverse with `torch.func`.
#
# * `f` maps a floating-point tensor `x` of any shape (0-dim and empty included) to a 0-dim tensor; `v` has `x`'s
#   shape and dtype.
# * Return `H v` with `x`'s shape and device, where `H` is the Hessian of `f` at `x` (flattened, it is
#   `torch.autograd.functional.hessian(f, x).reshape(n, n) @ v.reshape(n)`).
# * Compute it as a forward-mode derivative of the gradient (`jvp` of `grad(f)`), so that derivative formulas
#   run in forward mode over the reverse pass.
# * Never form the Hessian: no tensor with `n * n` or more elements, for `x` of `n >= 2` elements (an operator of
#   your own registered with `torch.library` hides what it makes from every check, and fails this clause).

# %% [solution] id=hvp_impl
def hvp(f, x, v):
    """H(x) @ v for a scalar f, by forward-mode differentiation of grad(f)."""
    ### BEGIN SOLUTION
    return jvp(grad(f), (x,), (v,))[1]
    ### END SOLUTION


# %% [tests] id=hvp_tests points=3
expect_close(hvp(_energy, _x, _v), torch.autograd.functional.hessian(_energy, _x) @ _v,
             "hvp(f, x, v) for x, v of shape (5,)")
expect_close(hvp(lambda x: (x ** 3).sum(), _x, _v), 6 * _x * _v, "hvp(f, x, v) for f(x) = (x ** 3).sum()")
### BEGIN HIDDEN TESTS
run_hidden("16-02", "hvp", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Per-sample gradients: `vmap(grad(...))` over a module
#
# `loss.backward()` on a batch gives the gradient of the batch's loss: the per-example gradients are summed
# (or averaged) inside the backward pass and lost. Differential privacy clips each example's gradient;
# data-valuation and curvature methods need them one by one. The slow way is a loop of `N` backward passes of
# one example each. The fast way writes the loss of **one** example as a function of the parameters and maps it
# over the batch:
#
# ```python
# params = {k: p.detach() for k, p in model.named_parameters()}
# buffers = {k: b.detach() for k, b in model.named_buffers()}
#
# def loss_one(params, buffers, x, y):             # x, y: ONE example, without a batch dimension
#     out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
#     return loss_fn(out, y.unsqueeze(0))
#
# grads = vmap(grad(loss_one), in_dims=(None, None, 0, 0))(params, buffers, x, y)
# ```
#
# `torch.func.functional_call(model, (params, buffers), args)` runs the module with the given tensors in place
# of its own, so the parameters become an input that `grad` differentiates (argument 0 by default);
# `in_dims=(None, None, 0, 0)` maps over the examples and shares the parameters and buffers. `vmap` runs
# `forward` **once**, on batched tensors, not `N` times. Inside `vmap` a module must not rely on the batch: a
# BatchNorm in training mode (statistics over the batch) or a dropout that draws randomness both fail or mix
# examples, so the model runs in eval mode, where BatchNorm uses its running buffers and dropout does nothing.

# %%
if run_demos():
    from tqdm.auto import tqdm

    demo = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).eval()
    xb, yb = torch.randn(256, 32), torch.randint(0, 10, (256,))
    t0 = time.perf_counter()
    for i in tqdm(range(len(xb)), desc="loop of backward passes"):
        demo.zero_grad()
        F.cross_entropy(demo(xb[i:i + 1]), yb[i:i + 1]).backward()
    loop_s = time.perf_counter() - t0
    p = {k: v.detach() for k, v in demo.named_parameters()}

    def one(p, x, y):
        return F.cross_entropy(functional_call(demo, p, (x[None],)), y[None])

    per_example = vmap(grad(one), in_dims=(None, 0, 0))
    per_example(p, xb[:2], yb[:2])  # the first call pays a one-time setup cost
    t0 = time.perf_counter()
    per_example(p, xb, yb)
    print(f"256 per-sample gradients: loop {loop_s * 1e3:.0f} ms, vmap(grad) {(time.perf_counter() - t0) * 1e3:.0f} ms")

# %% [markdown]
# ### Exercise 5 · `per_sample_grads` (4 points)
#
# Write `per_sample_grads(model, loss_fn, x, y)` with `torch.func.vmap`, `torch.func.grad` and
# `torch.func.functional_call`.
#
# * `model` is an `nn.Module` in eval mode, possibly with buffers (BatchNorm running statistics), dropout and
#   frozen parameters; `x` has shape `(N, ...)` and `y` shape `(N, ...)` with `N >= 1`; `loss_fn(out, y)` takes a
#   batch and returns a 0-dim loss.
# * Return a dict with one entry per parameter that requires grad (`named_parameters()` names, frozen ones
#   left out): a tensor of shape `(N, *param.shape)` whose row `i` is the gradient of
#   `loss_fn(model(x[i:i+1]), y[i:i+1])` with respect to that parameter.
# * Run the model through `functional_call` under `vmap`, with its buffers (those you do not pass, it takes
#   from the model): the number of times `model` is called does not grow with `N`.
# * Leave the model as it was: its parameters (values and `requires_grad`), buffers, `.grad` fields and mode
#   unchanged.

# %% [solution] id=per_sample_impl
def per_sample_grads(model, loss_fn, x, y):
    """{name: (N, *shape) per-example gradients} for each parameter of model that requires grad."""
    ### BEGIN SOLUTION
    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    frozen = {k: p.detach() for k, p in model.named_parameters() if not p.requires_grad}
    buffers = {k: b.detach() for k, b in model.named_buffers()}

    def loss_one(params, xi, yi):
        out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))
        return loss_fn(out, yi.unsqueeze(0))

    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)
    ### END SOLUTION


# %% [tests] id=per_sample_tests points=4
_model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4, 2)).double().eval()
_xb, _yb = torch.randn(5, 3, dtype=torch.float64), torch.randn(5, 2, dtype=torch.float64)
_g = per_sample_grads(_model, F.mse_loss, _xb, _yb)
expect_equal(sorted(_g), sorted(k for k, _ in _model.named_parameters()), "the keys of per_sample_grads(...)")
_model.zero_grad()
F.mse_loss(_model(_xb[2:3]), _yb[2:3]).backward()
expect_close(_g["4.weight"][2], _model[4].weight.grad, "row 2 of per_sample_grads(...)['4.weight'] (example 2 alone)")
expect_close(_g["0.bias"][2], _model[0].bias.grad, "row 2 of per_sample_grads(...)['0.bias']")
### BEGIN HIDDEN TESTS
run_hidden("16-02", "per_sample", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 7. Model ensembles: many models, one batched call
#
# The same trick runs many models of one architecture at once. `torch.func.stack_module_state(models)` returns
# two dicts, parameters and buffers, in which each entry stacks the `M` models' tensors along a new leading
# dimension. A single copy of the module, often moved to the `"meta"` device so that it holds no data of its
# own, then serves as the *function* that `functional_call` runs with model `m`'s slice of every tensor, and
# `vmap` over that leading dimension runs all `M` models in one call:
#
# ```python
# params, buffers = stack_module_state(models)           # {name: (M, *shape)}
# base = copy.deepcopy(models[0]).to("meta")             # the architecture, without data
# def one(p, b, x):
#     return functional_call(base, (p, b), (x,))
# out = vmap(one, in_dims=(0, 0, None))(params, buffers, x)   # the same x for every model: (M, B, ...)
# ```
#
# With `in_dims=(0, 0, 0)` each model gets a batch of its own instead (`x` of shape `(M, B, ...)`), as when
# ensemble members are trained on different data. The stacked tensors are new leaves: training them does not
# change the original modules.

# %% [markdown]
# ### Exercise 6 · `ensemble_forward` (3 points)
#
# Write `ensemble_forward(models, x, per_model=False)` with `torch.func.stack_module_state`,
# `torch.func.functional_call` and `torch.func.vmap`.
#
# * `models` is a non-empty list of modules of one architecture (the same class, parameter and buffer names and
#   shapes, the same parameters frozen, at least one parameter or buffer), in eval mode, possibly with BatchNorm
#   buffers and dropout.
# * With `per_model=False`, `x` is one batch `(B, ...)` that every model gets and the result is
#   `torch.stack([m(x) for m in models])`; with `per_model=True`, `x` has shape `(M, B, ...)` and row `m` of the
#   result is `models[m](x[m])`. Like that stack, the result is computed in the caller's grad mode and carries
#   gradients back to `x`: do not compute it under `torch.no_grad()`, also for an `x` that does not require
#   grad, nor under a `torch.enable_grad()` of your own.
# * Run all the models in one call under `vmap`: the number of times a module's forward runs does not grow with
#   the number of models.
# * Leave the models as they were: their parameters (values and which are frozen), buffers and mode unchanged.

# %% [solution] id=ensemble_impl
def ensemble_forward(models, x, per_model=False):
    """(M, B, ...) outputs of M models of one architecture, computed in one vmap call."""
    ### BEGIN SOLUTION
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")

    def one(p, b, xb):
        return functional_call(base, (p, b), (xb,))

    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)
    ### END SOLUTION


# %% [tests] id=ensemble_tests points=3
_models = [nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 2)).double().eval()
           for _ in range(3)]
_xb = torch.randn(5, 3, dtype=torch.float64)
expect_close(ensemble_forward(_models, _xb), torch.stack([m(_xb) for m in _models]),
             "ensemble_forward(models, x) for 3 models and x of shape (5, 3)")
_xs = torch.randn(3, 5, 3, dtype=torch.float64)
expect_close(ensemble_forward(_models, _xs, per_model=True), torch.stack([m(xi) for m, xi in zip(_models, _xs)]),
             "ensemble_forward(models, x, per_model=True) for x of shape (3, 5, 3)")
### BEGIN HIDDEN TESTS
run_hidden("16-02", "ensemble", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## What to remember
#
# * Forward mode carries a tangent with every value (dual numbers) and gives `J t` in one pass; reverse mode
#   gives `J^T g` in one pass after storing the forward's values. `jacfwd` costs one pass per input,
#   `jacrev` one per output.
# * A custom Function takes part in both modes and in `torch.func` transforms when it has `jvp` and `backward`,
#   a `forward` without `ctx`, a `setup_context`, and a vmap rule (`generate_vmap_rule = True`).
# * Transforms compose: `jvp(grad(f))` is a Hessian-vector product without the Hessian, and
#   `vmap(grad(loss))` with `functional_call` gives per-example gradients in one batched pass.
# * Parameters are just inputs to `functional_call`: stacked with `stack_module_state`, `vmap` runs a whole
#   ensemble at once.
