# %% [markdown]
# # 16-01 · Custom operators and fusion (torch.library)
#
# Every PyTorch function you call ends in an **operator**: a name such as `aten::sin`, a **schema** that says
# what it takes, what it returns and which arguments it writes to, and a table of **kernels**, one per
# dispatch key (CPU, CUDA, Meta, Autograd, ...). The dispatcher picks the kernel from the inputs. Tools that
# never run your data, such as `torch.compile`, `torch.export` or a shape check on the meta device, only read
# the schema and call a kernel that computes shapes.
#
# A plain Python function is none of that: the compiler traces *into* it, op by op, and stops (a graph
# break) at the first line it cannot follow, such as a NumPy call or a C extension. `torch.library.custom_op`
# turns a function into a real operator that the compiler keeps as one opaque node. The price: you now owe
# the dispatcher what it cannot derive by itself, namely a **fake** kernel (shapes, dtypes and strides
# without data), an **autograd** formula, and an honest list of the arguments the operator **mutates**.
#
# **You will build**
# 1. `smooth_clip`: the operator `c1601::smooth_clip` with one kernel for every device and a fake kernel.
# 2. Its autograd formula (`register_autograd` with `setup_context`) that saves only the output and is
#    differentiable twice.
# 3. `ema_`: an operator that updates a running average in place, declared with `mutates_args`, correct
#    under `torch.compile`.
# 4. `gelu_dropout`: a fused GELU + dropout operator whose backward recomputes the GELU from `x` and the
#    saved boolean mask, equal to the unfused composition under the same generator and saving fewer bytes.
# 5. A Triton kernel for the fused operator, registered for CUDA (checked on the CPU in Triton's interpreter).
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run right away, and
# **Validate runs only those visible checks**: "Success!" means they pass, not that you have full marks.
# When you submit, hidden checks test the same code much harder: several shapes and dtypes, transposed
# inputs, extreme values, fake tensors, the meta device, `torch.compile(fullgraph=True)`, first and second
# derivatives and the tensors your backward keeps. Heavy demos only run when you run the notebook yourself
# (`run_demos()` is False while grading). Keep the `def` and `class` lines of the skeletons as they are (the
# parameters' names, their order and their defaults): a hidden check compares them, and a parameter you add must
# come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import torch

from course.student.checks import expect, expect_close, expect_equal, expect_gradcheck, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()

import math

import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensorMode

_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. What an operator is made of
#
# Every operator has a schema. Read two of them: `aten::add.Tensor` returns a new tensor, while
# `aten::add_.Tensor` writes into `self`; the annotation `Tensor(a!)` says "this argument is written to, and the
# result aliases it". The compiler and autograd trust these annotations: they decide what may be reordered,
# what must be copied back, and which saved tensors a write invalidates.

# %%
print(torch.ops.aten.add.Tensor._schema)
print(torch.ops.aten.add_.Tensor._schema)
print("kernels of aten::sin for CPU, Meta, Autograd:",
      [torch._C._dispatch_has_kernel_for_dispatch_key("aten::sin", k) for k in ("CPU", "Meta", "Autograd")])

# %% [markdown]
# **Fake tensors.** A `FakeTensor` carries a shape, a dtype, a device and strides, but no storage. Under
# `FakeTensorMode`, each operator runs its *fake* (meta) kernel, which only works out the metadata of the
# output. `torch.compile` does this to trace a program, and it checks what it traced against the real run:
# if the fake kernel promises other strides than the real kernel delivers, later code compiled for one
# layout can read the other one wrong. The rule for an elementwise operator is simple: the output has the
# input's shape, dtype and device, and the strides `torch.empty_like(x)` gives (for a transposed input, a
# transposed output: elementwise PyTorch ops keep the input's memory order).

# %%
_xt = torch.randn(4, 6).t()  # a transposed (6, 4) view, strides (1, 6)
with FakeTensorMode() as _mode:
    _fy = torch.sin(_mode.from_tensor(_xt))
print(type(_fy).__name__, tuple(_fy.shape), _fy.stride(), _fy.dtype, "(no data was computed)")
print("empty_like keeps that layout:", torch.empty_like(torch.randn(4, 6).t()).stride())

# %% [markdown]
# **Why not a plain function?** The cell below builds the same computation twice: once as a function that
# leaves PyTorch for plain Python numbers (`tolist()`, as code that hands data to an outside library does),
# once as a custom operator around the same code. With `fullgraph=True`, the compiler refuses the first (a graph
# break is an error) and keeps the second as a single node. The recording backend prints the graph it got.
# (Dynamo traces more than you might think: NumPy calls, for one, it translates into PyTorch operations.)

# %%
def python_clip(x):
    return torch.tensor([min(max(v, -1.0), 1.0) for v in x.tolist()], dtype=x.dtype, device=x.device)


@torch.library.custom_op("c1601demo::python_clip", mutates_args=())
def python_clip_op(x: torch.Tensor) -> torch.Tensor:
    return python_clip(x)


@python_clip_op.register_fake
def _(x):
    return torch.empty_like(x)


def show_graph(gm, example_inputs):
    print("  graph:", [str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
    return gm.forward


if run_demos():
    for name, fn in (("plain function", python_clip), ("custom op", python_clip_op)):
        print(name)
        try:
            torch.compile(lambda x: fn(x) * 2, backend=show_graph, fullgraph=True)(torch.randn(5))
        except Exception as e:  # noqa: BLE001 - the demo shows the compiler's refusal
            print("  refused:", type(e).__name__, str(e).splitlines()[0][:110])

# %% [markdown]
# ## 2. A custom operator: kernel and fake kernel
#
# ```python
# @torch.library.custom_op("ns::name", mutates_args=())
# def name(x: torch.Tensor, k: float) -> torch.Tensor: ...     # the type hints become the schema
#
# @name.register_fake
# def _(x, k): return torch.empty_like(x)                     # metadata only: never read x's data
# ```
#
# The decorator infers the schema from the type hints, registers the function as the kernel for every
# device (until `register_kernel` adds a device's own), and returns a `CustomOpDef` that you call like the
# function; `torch.ops.ns.name` is the same operator through the dispatcher. Re-running the cell registers
# it again, replacing the old kernels. Two rules come with the schema: an output may not be an input (or a
# view of one), so return a new tensor; and an argument the kernel writes to must be listed in
# `mutates_args` (section 4).
#
# The operator of this notebook is a smooth clip, a saturating activation used to keep logits and
# attention scores in range (Gemma-style "soft-capping"):
#
# $$\mathrm{smooth\_clip}(x, c) = c \tanh(x / c), \qquad \frac{d}{dx} = 1 - \tanh^2(x / c) = 1 - (y / c)^2 .$$
#
# It is close to `x` for `|x| << c` and tends to `±c` without ever reaching past it.

# %% [markdown]
# ### Exercise 1 · `smooth_clip`: the operator and its fake kernel (4 points)
#
# * Register the operator `c1601::smooth_clip` with `torch.library.custom_op`, taking a tensor `x` and a
#   float `limit`, mutating nothing, with one kernel for every device (no `device_types`), and bind it to the
#   name `smooth_clip`.
# * `smooth_clip(x, limit)` returns `limit * tanh(x / limit)` for any floating `x` (float32 or float64, any
#   shape, 0-dim and empty included) and any `limit > 0`, in `x`'s dtype, and it leaves `x` unchanged.
# * It stays finite and saturates at `±limit` for inputs as large as `±1e30` in float32 and `±1e300` in
#   float64; `±inf` gives `±limit` and NaN gives NaN.
# * The output is a new tensor with `x`'s shape, dtype and device and the strides of `torch.empty_like(x)`.
# * Register a fake kernel that gives the same metadata without reading `x`'s data, so that the operator runs
#   under `FakeTensorMode` and on the meta device.
# * Under `torch.compile(fullgraph=True)`, a function calling `smooth_clip` compiles without a graph break,
#   and the operator is one node of the graph (the compiler does not trace into its body).

# %% [solution] id=clip_impl
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    ### BEGIN SOLUTION
    return limit * torch.tanh(x / limit)
    ### END SOLUTION


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    ### BEGIN SOLUTION
    return torch.empty_like(x)
    ### END SOLUTION


# %% [tests] id=clip_tests points=4
_x = torch.tensor([[-3.0, -0.5, 0.0], [0.25, 2.0, 40.0]], dtype=torch.float64)
expect_close(smooth_clip(_x, 2.0), 2.0 * torch.tanh(_x / 2.0), "smooth_clip(x, 2.0) on a (2, 3) float64 tensor")
expect_close(torch.ops.c1601.smooth_clip(_x, 2.0), 2.0 * torch.tanh(_x / 2.0),
             "torch.ops.c1601.smooth_clip(x, 2.0), the operator through the dispatcher")
_xt = _x.t()
with FakeTensorMode() as _mode:
    _fy = smooth_clip(_mode.from_tensor(_xt), 2.0)
expect_equal((tuple(_fy.shape), _fy.stride(), _fy.dtype), ((3, 2), (1, 3), torch.float64),
             "shape, strides and dtype of smooth_clip on a fake transposed (3, 2) tensor")
### BEGIN HIDDEN TESTS
run_hidden("16-01", "clip_op", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Autograd for an operator
#
# A custom operator is opaque to autograd too: without a formula, a backward pass through it raises. You
# give one with `register_autograd(backward, setup_context=setup_context)`:
#
# * `setup_context(ctx, inputs, output)` runs after the forward; `inputs` is the tuple of the operator's
#   arguments, `output` its result. Keep what the backward needs: tensors with `ctx.save_for_backward(...)`
#   (so that autograd can check they were not overwritten since), anything else as an attribute of `ctx`.
# * `backward(ctx, grad)` returns one gradient per input, `None` for a non-tensor such as `limit`.
#
# **What to save is a memory decision.** Autograd keeps the saved tensors alive until the backward pass
# runs, for every layer of a network at once. For `smooth_clip` the derivative can be written from the input
# (`1 - tanh²(x/c)`, which recomputes a `tanh`) or from the output (`1 - (y/c)²`, no transcendental call). The
# output exists anyway for the next layer, so saving it costs nothing extra.
#
# **Twice differentiable.** If the backward is written with differentiable PyTorch operations on the saved
# tensors, autograd can differentiate the backward itself (`create_graph=True`, Hessian-vector products,
# `gradgradcheck`). The second derivative of `smooth_clip` is `-2 (y / c²)(1 - (y / c)²)`: for that to come out,
# the saved `y` must stay attached to the graph, which `save_for_backward(output)` does.

# %% [markdown]
# ### Exercise 2 · `smooth_clip`'s autograd formula (4 points)
#
# * Register the formula on `smooth_clip` with `register_autograd` and a `setup_context`.
# * The gradient with respect to `x` is `grad * (1 - (y / limit)**2)`, with `y` the output, for float32 and
#   float64 inputs of any shape, transposed ones included, and any `limit > 0` (tiny ones too), and equal to the
#   derivative of `limit * torch.tanh(x / limit)`; `limit` gets no gradient.
# * `setup_context` saves only the output `y` itself with `ctx.save_for_backward` (not `x`, and not a copy of
#   `y`, for a transposed `x` too) and keeps `limit` on `ctx`.
# * The backward reads the saved `y` without writing to it: `y` is the tensor `smooth_clip` returned to the caller.
# * Every tensor the backward creates is on `y`'s device, so it runs on a GPU as on the CPU.
# * The backward is itself differentiable: second derivatives (`torch.autograd.gradgradcheck`) are those of
#   `limit * torch.tanh(x / limit)`.

# %% [solution] id=grad_impl
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ### BEGIN SOLUTION
    _, limit = inputs
    ctx.limit = limit
    ctx.save_for_backward(output)
    ### END SOLUTION


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    ### BEGIN SOLUTION
    (y,) = ctx.saved_tensors
    return grad * (1 - (y / ctx.limit) ** 2), None
    ### END SOLUTION


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)

# %% [tests] id=grad_tests points=4
_x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
_xr = _x.detach().clone().requires_grad_(True)
_g = torch.randn(3, 4, dtype=torch.float64)
expect_close(torch.autograd.grad(smooth_clip(_x, 1.5), _x, _g)[0],
             torch.autograd.grad(1.5 * torch.tanh(_xr / 1.5), _xr, _g)[0], "the gradient of smooth_clip(x, 1.5)")
expect_gradcheck(lambda t: smooth_clip(t, 1.5), (_x,), "smooth_clip(x, 1.5)")
expect(torch.autograd.gradgradcheck(lambda t: smooth_clip(t, 1.5), (_x,), raise_exception=False),
       "gradgradcheck of smooth_clip(x, 1.5): the backward must be differentiable")
### BEGIN HIDDEN TESTS
run_hidden("16-01", "clip_grad", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Operators that write to their arguments
#
# An optimizer step, a running statistic or a KV cache update writes into a tensor that already exists.
# For such an operator, `mutates_args={"avg"}` puts `Tensor(a!) avg` into the schema. Two systems read it:
#
# * **autograd's version counter**: every write through a declared mutation bumps `avg._version`, so a
#   backward that saved `avg` before the write raises instead of using changed values;
# * **functionalization**: `torch.compile` and `torch.export` rewrite a program into one without mutations
#   (each write becomes a new tensor plus a copy back into the input at the end). An operator declared
#   functional (`mutates_args=()`) that returns nothing does, as far as the compiler knows, nothing at all:
#   its call may be dropped, and the write is lost.
#
# The demo compiles a call of each through AOTAutograd (`backend="aot_eager"`, which functionalizes) and
# runs `torch.library.opcheck`, PyTorch's test of an operator's registrations, on the undeclared one.

# %%
@torch.library.custom_op("c1601demo::ema_undeclared_", mutates_args=())
def ema_undeclared_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
    avg.mul_(decay).add_(x, alpha=1 - decay)


ema_undeclared_.register_fake(lambda avg, x, decay: None)

if run_demos():
    _avg = torch.zeros(3)
    torch.compile(lambda a, x: ema_undeclared_(a, x, 0.5), backend="aot_eager", fullgraph=True)(_avg, torch.ones(3))
    print("undeclared mutation, compiled: avg =", _avg.tolist(), "(the update was dropped)")
    _report = torch.library.opcheck(ema_undeclared_, (torch.zeros(3), torch.ones(3), 0.5), raise_exception=False)
    print("opcheck:", {k: v if isinstance(v, str) else str(v).splitlines()[0][:70] for k, v in _report.items()})

# %% [markdown]
# ### Exercise 3 · `ema_`: a mutating operator (3 points)
#
# * `register_ema()` registers the operator `c1601::ema_` with `torch.library.custom_op`, with arguments `avg`
#   (a tensor), `x` (a tensor) and `decay` (a float), and returns it (the `CustomOpDef`).
# * `ema_(avg, x, decay)` updates `avg` in place to `decay * avg + (1 - decay) * x`, for float32 and
#   float64 tensors whose difference `x - avg` stays finite, `x` of `avg`'s shape or broadcasting to it, `avg`
#   contiguous or not, and returns `None`.
#   With `decay = 0` `avg` becomes `x`, and with `decay = 1` it stays as it was, even for an `avg` many orders
#   of magnitude larger or smaller than `x`.
# * Every tensor it creates is on `avg`'s device, so it runs on a GPU as on the CPU.
# * Its schema declares `avg`, and only `avg`, as mutated (`mutates_args={"avg"}`); `x` is left unchanged.
# * Under `torch.compile(fullgraph=True, backend="aot_eager")`, a function that calls `torch.ops.c1601.ema_`
#   twice on the same `avg` leaves `avg` as the eager calls do.

# %% [solution] id=ema_impl
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    ### BEGIN SOLUTION
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x, alpha=1 - decay)

    return ema_
    ### END SOLUTION


# %% [tests] id=ema_tests points=3
_ema = register_ema()
_avg, _x = torch.zeros(2, 3, dtype=torch.float64), torch.ones(2, 3, dtype=torch.float64)
expect(_ema(_avg, _x, 0.75) is None, "ema_(avg, x, 0.75) returns None")
expect_close(_avg, torch.full((2, 3), 0.25, dtype=torch.float64), "avg after ema_(zeros, ones, 0.75)")
expect("Tensor(a" in str(torch.ops.c1601.ema_.default._schema).split("avg")[0],
       f"the schema marks avg as mutated: {torch.ops.c1601.ema_.default._schema}")
### BEGIN HIDDEN TESTS
run_hidden("16-01", "ema", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Fusion: activation and dropout in one operator
#
# In a Transformer's MLP, `dropout(gelu(x))` runs as two operators: each reads its whole input from memory
# and writes its whole output, and autograd keeps tensors for both backward passes. On a GPU such
# elementwise chains are limited by memory traffic, not arithmetic, so doing both in one pass (a **fused**
# kernel) reads `x` once and writes the result once.
#
# Fusion also changes what the backward must keep. Here is the tanh approximation of GELU that
# `F.gelu(x, approximate="tanh")` computes:
#
# $$\mathrm{gelu}(x) = \tfrac12 x \,(1 + \tanh u), \quad u = \sqrt{2/\pi}\,(x + 0.044715\,x^3), \qquad
# \mathrm{gelu}'(x) = \tfrac12 (1 + \tanh u) + \tfrac12 x\,(1 - \tanh^2 u)\,\sqrt{2/\pi}\,(1 + 3 \cdot 0.044715\,x^2).$$
#
# Dropout with probability `p` multiplies by `keep / (1 - p)`, where `keep` is a random boolean mask. The
# fused backward needs only `x` (to **recompute** `gelu'(x)`, a few flops) and `keep`, stored as booleans (one
# byte each): `grad_x = grad * keep / (1 - p) * gelu'(x)`. The unfused `F.dropout(F.gelu(x), p)` keeps `x` and a
# float mask; a GELU written out of `tanh`, `pow` and products keeps every intermediate. The demo measures the
# bytes each version saves, with `torch.autograd.graph.saved_tensors_hooks`.
#
# **Randomness you can check.** The mask comes from a `torch.Generator` passed in, drawn in a fixed order:
# the same generator state gives the same mask, so the fused operator can be compared with the unfused
# composition. A custom operator's schema has no `Generator` type, so the Python function `gelu_dropout`
# draws the mask and passes it to the operator as a boolean tensor.

# %%
def saved_bytes(fn, x):
    """The bytes of the tensors autograd saves while fn(x) runs (each saved tensor counted once)."""
    seen = {}

    def pack(t):
        seen[(t.data_ptr(), t.dtype, tuple(t.shape))] = t.nelement() * t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn(x)
    return sum(seen.values())


def gelu_written_out(x):
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x.pow(3))
    return 0.5 * x * (1 + torch.tanh(u))


if run_demos():
    import matplotlib.pyplot as plt

    _x = torch.randn(1 << 16, requires_grad=True)
    _keep = torch.rand(1 << 16) >= 0.1
    versions = {
        "written out, float mask": lambda x: gelu_written_out(x) * _keep.to(x.dtype) / 0.9,
        "F.dropout(F.gelu(x))": lambda x: F.dropout(F.gelu(x, approximate="tanh"), 0.1),
        "F.gelu(x) * bool mask": lambda x: F.gelu(x, approximate="tanh") * _keep / 0.9,
    }
    sizes = {k: saved_bytes(f, _x) / _x.numel() for k, f in versions.items()}
    fig, ax = plt.subplots(figsize=(6, 2.6))
    ax.barh(list(sizes), list(sizes.values()))
    ax.set_xlabel("bytes saved for backward per element (float32)")
    ax.set_title("What the unfused compositions keep alive")
    plt.tight_layout()
    plt.show()
    print({k: f"{v:.1f} B/element" for k, v in sizes.items()}, "(the fused operator: 5 B/element)")

# %% [markdown]
# ### Exercise 4 · `gelu_dropout`: a fused operator (5 points)
#
# * The operator `c1601::gelu_dropout_op(x, keep, p)` (`x` a float tensor, `keep` a boolean tensor of `x`'s
#   shape, `p` a float) returns `gelu(x) * keep / (1 - p)` (with `p == 0` too: 0 where `keep` is false), with the
#   tanh approximation of GELU (`F.gelu(x, approximate="tanh")`), in `x`'s dtype, as a new tensor laid out like
#   `torch.empty_like(x)`, and its fake kernel gives that metadata without data.
# * Its autograd formula gives `x` the gradient `grad * keep / (1 - p) * gelu'(x)`, recomputing `gelu'(x)` from
#   `x` in the backward, and no gradient to `keep` and `p`.
# * For the backward it saves only `x` itself (not a copy of it, for a transposed `x` too) and the boolean `keep`
#   (at most `x`'s bytes plus one byte per element), not the output and not a float copy of the mask.
# * `gelu_dropout(x, p, generator=None)`, for `p` in `[0, 1)`, draws `u = torch.rand(x.shape,
#   generator=generator, dtype=x.dtype, device=x.device)` once, keeps the elements where `u >= p`, and returns
#   the operator's result. With `p == 0` it draws nothing (the state of `generator`, or of the default generator
#   when it is `None`, is left alone) and returns `gelu(x)`.
# * So `gelu_dropout(x, p, g)` equals `F.gelu(x, approximate="tanh") * (u >= p) / (1 - p)` with `u` drawn
#   from a generator in the same state, for float32 and float64 `x` of any shape, in value and in gradient.
# * Every tensor it creates or reuses, in the forward and in the backward, is on `x`'s device, whatever device
#   earlier calls ran on, so it runs on a GPU as on the CPU.

# %% [solution] id=fused_impl
_C = math.sqrt(2 / math.pi)  # the constant of the tanh approximation


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    """gelu(x) * keep / (1 - p), GELU in its tanh approximation."""
    ### BEGIN SOLUTION
    return F.gelu(x, approximate="tanh") * keep / (1 - p)
    ### END SOLUTION


@gelu_dropout_op.register_fake
def _(x, keep, p):
    ### BEGIN SOLUTION
    return torch.empty_like(x)
    ### END SOLUTION


def _fused_setup(ctx, inputs, output):
    """Keep x and the boolean keep mask (saved) and p."""
    ### BEGIN SOLUTION
    x, keep, p = inputs
    ctx.p = p
    ctx.save_for_backward(x, keep)
    ### END SOLUTION


def _fused_backward(ctx, grad):
    """grad * keep / (1 - p) * gelu'(x), gelu' recomputed from x; None for keep and p."""
    ### BEGIN SOLUTION
    x, keep = ctx.saved_tensors
    t = torch.tanh(_C * (x + 0.044715 * x ** 3))
    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)
    return grad * keep / (1 - ctx.p) * d, None, None
    ### END SOLUTION


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    """GELU (tanh approximation) then dropout with probability p, as one operator; the mask from generator."""
    ### BEGIN SOLUTION
    if p == 0:
        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)
    else:
        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
        keep = u >= p
    return gelu_dropout_op(x, keep, p)
    ### END SOLUTION


# %% [tests] id=fused_tests points=5
_x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
_out = gelu_dropout(_x, 0.25, torch.Generator().manual_seed(3))
_u = torch.rand(4, 5, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
_ref = F.gelu(_x, approximate="tanh") * (_u >= 0.25) / 0.75
expect_close(_out, _ref, "gelu_dropout(x, 0.25, generator) against the unfused composition with the same draw")
expect_close(torch.autograd.grad(_out.sum(), _x)[0], torch.autograd.grad(_ref.sum(), _x)[0],
             "the gradient of gelu_dropout(x, 0.25, generator).sum()")
expect_close(gelu_dropout(_x, 0.0), F.gelu(_x, approximate="tanh"), "gelu_dropout(x, 0.0) is gelu(x)")
_xb = torch.randn(1000, requires_grad=True)
expect(saved_bytes(lambda t: gelu_dropout(t, 0.5), _xb) <= 5 * 1000,
       f"gelu_dropout saves at most 5 bytes per float32 element, not {saved_bytes(lambda t: gelu_dropout(t, 0.5), _xb)}"
       " bytes for 1000 elements")
### BEGIN HIDDEN TESTS
run_hidden("16-01", "fused", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Demo: the fused operator against the composition
#
# Timings on your device for a forward and backward pass of a `(2048, 2048)` float32 tensor. On a CPU the
# Python-level operator is not faster (its kernel is still a chain of PyTorch calls); the saving it shows
# everywhere is memory: the bytes kept for backward. A real fused kernel (Triton or CUDA, one pass over
# memory) adds the speed, as the last section of the lecture shows.

# %%
if run_demos():
    import time

    from tqdm.auto import tqdm

    _x = torch.randn(2048, 2048, device=DEVICE, requires_grad=True)

    def _time(fn, reps=3):
        fn(_x).sum().backward()
        if DEVICE.type == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in tqdm(range(reps), leave=False):
            fn(_x).sum().backward()
        if DEVICE.type == "cuda":
            torch.cuda.synchronize()
        return (time.perf_counter() - t0) / reps

    _g = torch.Generator(device=DEVICE)
    for name, fn in (("composition", lambda t: F.dropout(F.gelu(t, approximate="tanh"), 0.1)),
                     ("fused operator", lambda t: gelu_dropout(t, 0.1, _g))):
        print(f"{name:>15}: {1e3 * _time(fn):7.1f} ms a step, {saved_bytes(fn, _x) / 2**20:6.1f} MiB saved")

# %% [markdown]
# ## 6. The same operator on a GPU: a Triton kernel
#
# The operator's Python kernel above is still a chain of PyTorch calls: on a GPU each one reads and writes the
# whole tensor. A **Triton** kernel does the fused work in one pass. Triton programs are written per *block*:
# program `i` of the grid loads `BLOCK` consecutive elements (`offs = i * BLOCK + tl.arange(0, BLOCK)`), with a
# mask `offs < n` so that the last, partial block neither reads nor writes past the end; it computes in
# registers and stores the result once.
#
# `register_kernel("cuda")` attaches such a kernel to the operator for CUDA tensors only: the dispatcher keeps
# the Python kernel for the CPU, and the fake kernel and the autograd formula stay the same for every device.
# Triton ships with PyTorch's CUDA wheels; on a CPU-only install the cell below leaves `triton` as `None`
# and the kernel cannot run. Without a GPU you can still run a kernel in Triton's interpreter, on CPU
# tensors: set the environment variable `TRITON_INTERPRET=1` before Python starts. The grader checks your
# kernel on the CPU that way too.

# %%
try:
    import triton
    import triton.language as tl
except ImportError:  # CPU-only PyTorch wheels come without Triton
    triton = tl = None

triton_jit = triton.jit if triton is not None else (lambda fn: fn)

# %% [markdown]
# ### Exercise 5 · a Triton kernel for `gelu_dropout_op` (3 points)
#
# * `gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr)` is a Triton kernel
#   (`@triton_jit`, which is `triton.jit`): program `i` handles the elements `i * BLOCK` to `i * BLOCK + BLOCK - 1`
#   of the flat, contiguous `x` and `keep`, and no others, skips those at `n` or past it (neither loads nor stores
#   them), and stores `gelu(x) * scale` (tanh approximation) where `keep` is true and 0 where it is false.
# * `launch_gelu_dropout(x, keep, p, block=1024)` runs it on contiguous copies of `x` and `keep`, on a grid of
#   `triton.cdiv(n, block)` programs of `block` elements each (`BLOCK=block`) with `scale = 1 / (1 - p)`, and
#   returns a new tensor of `x`'s shape and dtype; when `x` has no element it launches nothing. Every tensor it
#   hands the kernel is on `x`'s device.
# * For float32 and float64 tensors of any size and any finite values (large ones included), and any `p` in
#   `[0, 1)`, 0 included, its result equals `F.gelu(x, approximate="tanh") * keep / (1 - p)`.
# * The cell registers the launcher as `gelu_dropout_op`'s CUDA kernel (`register_kernel("cuda")`), whose result
#   is laid out like `torch.empty_like(x)` as the fake kernel promises.
# * On a GPU, `gelu_dropout(x, p, generator)` then runs your kernel in the forward and equals the unfused
#   composition, in value and gradient, as on the CPU.

# %% [solution] id=triton_impl
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    ### BEGIN SOLUTION
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside, other=0.0)
    keep = tl.load(keep_ptr + offs, mask=inside, other=0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)
    y = 0.5 * x * (1.0 + t)
    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)
    ### END SOLUTION


def launch_gelu_dropout(x, keep, p, block=1024):
    """gelu(x) * keep / (1 - p) by gelu_dropout_kernel, on contiguous copies of x and keep."""
    ### BEGIN SOLUTION
    x, keep = x.contiguous(), keep.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    if n:
        gelu_dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)
    return out
    ### END SOLUTION


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))


# %% [tests] id=triton_tests points=3
expect(torch._C._dispatch_has_kernel_for_dispatch_key("c1601::gelu_dropout_op", "CUDA"),
       "gelu_dropout_op has a CUDA kernel")
if triton is not None and DEVICE.type == "cuda":
    _x = torch.randn(3000, device=DEVICE)
    _keep = torch.rand(3000, device=DEVICE) >= 0.2
    expect_close(launch_gelu_dropout(_x, _keep, 0.2), F.gelu(_x, approximate="tanh") * _keep / 0.8,
                 "launch_gelu_dropout(x, keep, 0.2) on the GPU, x of 3000 float32 elements")
else:
    launch_gelu_dropout(torch.zeros(0), torch.zeros(0, dtype=torch.bool), 0.2)  # no GPU: the empty case only
### BEGIN HIDDEN TESTS
run_hidden("16-01", "triton", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## What to remember
#
# * An operator is a schema plus kernels per dispatch key. `torch.library.custom_op` makes a function one
#   opaque node for the compiler; you then owe a fake kernel (shapes, dtypes, strides: those of the real
#   output), an autograd formula, and the truth about which arguments it mutates.
# * `register_autograd` splits the old `autograd.Function` into `setup_context` (what to keep) and
#   `backward`. Save what is cheapest to keep (an output the next layer holds anyway, a boolean mask) and
#   recompute the rest; write the backward with differentiable operations and second derivatives come free.
# * An undeclared mutation is invisible to functionalization: compiled code may drop it. Declare it in
#   `mutates_args` and test the registrations with `torch.library.opcheck`.
# * A fused operator reads its input once and saves less for backward; with an explicit generator its
#   randomness is reproducible and comparable with the unfused composition.
