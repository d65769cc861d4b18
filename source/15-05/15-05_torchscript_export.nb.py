# %% [markdown]
# # 15-05 · TorchScript and `torch.export`: getting a model out of Python
#
# Training happens in Python; serving often does not. A phone app, a C++ inference server or an
# embedded runtime wants a **file** that describes the computation completely, with the weights,
# and that can be run without your `nn.Module` class, without your source code and ideally without
# a Python interpreter. PyTorch has had two generations of tools for producing that file:
#
# - **TorchScript** (`torch.jit.trace`, `torch.jit.script`, `torch.jit.save`/`load`), since 2018.
#   Its files run in the C++ `libtorch` runtime (`torch::jit::load` in C++).
# - **`torch.export`** (`torch.export.export`, `torch.export.save`/`load`), the current path. It
#   produces an `ExportedProgram`: an FX graph of ATen operators with explicit inputs, weights and
#   shape constraints, which runtimes such as AOTInductor and ExecuTorch compile ahead of time.
#
# **Be clear about the versions.** In the PyTorch installed for this course (2.14), every TorchScript
# entry point (`torch.jit.trace`, `torch.jit.script`, `torch.jit.save`, `torch.jit.load`, ...) emits
# ``FutureWarning: `torch.jit.<name>` is deprecated. Please switch to `torch.compile` or `torch.export`.``
# The documentation says the same: TorchScript is deprecated in favour of `torch.export`. You will
# still meet it everywhere (existing C++ deployments, mobile apps, older model zoos), so this notebook
# teaches it as the **legacy path**: how it works, how it fails, and how to move to `torch.export`.
#
# In this notebook you will:
#
# 1. see tracing silently bake a branch into a model, and write a detector for it (**exercise 1**);
# 2. rewrite the branch with `torch.cond` so that `torch.export` keeps both sides (**exercise 2**);
# 3. export with a **dynamic batch dimension** and a checked range of sizes (**exercise 3**);
# 4. read an `ExportedProgram`'s graph: which ATen operators it calls, and which of them a runtime
#    does not support (**exercise 4**);
# 5. save a scripted module and an exported program, and load both in a **fresh process** that has
#    never seen your class (**exercise 5**).
#
# Everything runs on a CPU. Cells that train or benchmark only run when you run the notebook
# yourself (`run_demos()`); grading skips them.
#
# **Validate runs only the visible checks.** "Success!" means your code passes the examples in the
# test cells, not that it earns full marks: grading runs many more hidden checks on the same functions. Keep the
# `def` and `class` lines of the skeletons as they are (the parameters' names, their order and their defaults):
# a hidden check compares them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and the device. Exporting and saving happen on the CPU in this notebook.
import torch
from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden
DEVICE = pick_device()

# %%
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter

import torch.fx as fx
import torch.nn as nn
from torch.export import Dim
from tqdm.auto import tqdm

from course.student import data

_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# Every torch.jit call below would print the deprecation FutureWarning quoted above to stderr. We have
# read it (and taught it), so we silence exactly that message, nothing else: a test cell that writes to
# stderr is scored zero by nbgrader, and other warnings (TracerWarning!) are still worth seeing.
warnings.filterwarnings("ignore", message=r"`torch\.jit\.\w+` is deprecated", category=FutureWarning)

# %% [markdown]
# ## 1. Tracing records one path through your code
#
# Our running example is a small FashionMNIST classifier with one twist: some images arrive
# **inverted** (a white garment on a black background is the dataset's convention; a scanner
# may deliver the opposite). The model checks the batch's mean brightness and, when it is above
# one half, flips the pixels back before classifying:

# %%
class BranchyNet(nn.Module):
    """A FashionMNIST MLP that un-inverts a batch whose mean pixel value is above 0.5."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        if x.mean() > 0.5:          # a decision taken on the *value* of a tensor
            x = 1.0 - x
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


net = BranchyNet().eval()
dark = torch.rand(4, 1, 28, 28) * 0.4          # mean about 0.2: the normal case
bright = 1.0 - dark                              # the same images inverted: mean about 0.8
with torch.no_grad():
    print("eager: same logits for an image and its inverse?", torch.allclose(net(dark), net(bright)))

# %% [markdown]
# `torch.jit.trace(model, example)` runs `forward` **once** on the example and records every tensor
# operation that actually executed. Python itself is not recorded: the `if` is evaluated by Python on
# the example (a real tensor), and only the operations of the branch that was taken end up in the
# graph. The trace is a straight line. When the comparison `x.mean() > 0.5` is turned into a Python
# `bool`, the tracer notices and emits a `TracerWarning`, which is easy to miss in a long log:

# %%
if run_demos():  # tracing and comparing take about half a second: graders skip it
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", torch.jit.TracerWarning)
        traced = torch.jit.trace(net, dark)            # traced on a *dark* batch
    for w in caught:
        print(f"{w.category.__name__}: {str(w.message)[:110]}...")

    with torch.no_grad():
        print("traced vs eager on a dark batch:  ", torch.allclose(traced(dark), net(dark)))
        print("traced vs eager on a bright batch:", torch.allclose(traced(bright), net(bright)))
    print(traced.code)

# %% [markdown]
# The generated code (`traced.code`) shows it plainly: no comparison, no `1.0 - x`. The trace
# answers bright batches as if they were dark, with no error, just wrong logits.
#
# ### Debugging a trace
#
# Three tools, from cheapest to most thorough:
#
# - **Read the warnings.** A `TracerWarning` about converting a tensor to a Python boolean, number or
#   index means a value was frozen into the trace.
# - **Read the code.** `traced.code` (or `traced.graph`) is what will run. Missing operations are
#   missing behaviour.
# - **Compare on other inputs.** `torch.jit.trace(model, example, check_inputs=[...])` re-traces on
#   each check input and raises `TracingCheckError` when the graphs differ. More directly: run the
#   trace and the eager model on inputs that *should* take other paths and compare the outputs.
#   This is the only tool that catches every case, because it tests behaviour, not code.

# %%
if run_demos():  # a second trace (about 0.15 s): shown to you, skipped when grading
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        try:
            torch.jit.trace(net, dark, check_inputs=[(bright,)])
        except torch.jit.TracingCheckError as exc:
            print("TracingCheckError:", str(exc).splitlines()[1][:100])

# %% [markdown]
# ### Exercise 1 — find the inputs a trace gets wrong (3 points)
#
# Write `trace_mismatches(model, example, inputs)`. Trace `model` once, on `example`, with
# `torch.jit.trace`. Then, for each tensor in the list `inputs`, run both the trace and the
# eager `model` on it and report whether they disagree. Return a list of Python `bool`s, one per input,
# in order: `True` where `torch.allclose(traced_output, eager_output)` (default tolerances) is `False`.
# Run everything, the trace included, under `torch.no_grad()` (no autograd graphs are needed).
# Tracing a model with a branch emits a `TracerWarning`; ignore that category inside your function
# (with `warnings.catch_warnings()`) so that calling it prints nothing to stderr.

# %% [solution] id=trace_mismatches_impl
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    """For each input: True where the trace of ``model`` on ``example`` disagrees with eager ``model``."""
    ### BEGIN SOLUTION
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        with torch.no_grad():
            traced = torch.jit.trace(model, example)
            return [not torch.allclose(traced(x), model(x)) for x in inputs]
    ### END SOLUTION


# %% [tests] id=trace_mismatches_tests points=3
_net = BranchyNet().eval()
_dark = torch.rand(3, 1, 28, 28) * 0.4
_flags = trace_mismatches(_net, _dark, [_dark * 0.5, 1.0 - _dark])
expect_equal(_flags, [False, True], "trace_mismatches(BranchyNet, dark, [another dark batch, a bright batch])")
expect_equal(trace_mismatches(nn.Sequential(nn.Flatten(), nn.Linear(784, 3)), _dark, [1.0 - _dark]), [False],
             "trace_mismatches on a model without a branch")
### BEGIN HIDDEN TESTS
run_hidden("15-05", "trace_mismatches", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Scripting, and the two ways to keep a branch
#
# **Scripting** (`torch.jit.script(model)`) does not run your code; it *compiles* it. TorchScript
# reads the source of `forward` (and of every method it calls), parses it as a statically typed
# subset of Python, and keeps control flow (`if`, `for`, `while`) as real graph constructs. So the
# branch survives:

# %%
scripted = torch.jit.script(net)
with torch.no_grad():
    print("scripted vs eager on a bright batch:", torch.allclose(scripted(bright), net(bright)))
print(scripted.code)

# %% [markdown]
# The price is the language. TorchScript accepts a subset of Python: variables have one static type
# (arguments default to `Tensor`; annotate anything else), no `**kwargs`, no arbitrary library calls
# (NumPy, `math.prod` on shapes, your own helper classes unless they are scriptable too), no
# `try`/`except`, no generators. A model that scripts today may break when someone adds a
# convenience line. Here is a common failure: a helper that accepts any iterable of sizes.

# %%
class NotScriptable(nn.Module):
    def forward(self, x, *shape):
        return x.reshape(*shape)      # star-args are not TorchScript


try:
    torch.jit.script(NotScriptable())
except Exception as exc:  # torch.jit.frontend.NotSupportedError
    print(f"{type(exc).__name__}: {str(exc).splitlines()[0][:110]}")

# %% [markdown]
# **When to use which.** Trace models whose `forward` is a fixed sequence of tensor operations
# (most CNNs), or which call code TorchScript cannot parse; script models with data-dependent
# control flow or loops whose trip count depends on the input. The two mix: a scripted helper
# function called from a traced module keeps its control flow.
#
# ### `torch.export`: one graph, no silent branches
#
# `torch.export.export(model, args)` also runs `forward`, but on **fake tensors** that carry shapes
# and dtypes and no values, and records ATen operations. When Python needs a value (our `if`), export
# does not guess: it raises an error that names the line. Silent baking is impossible.

# %%
import contextlib
import io
import logging

if run_demos():  # a failing export takes about a second: graders skip it
    # On failure, export writes the partial graph it had built to stderr: capture it and show its first lines.
    partial = io.StringIO()
    logging.disable(logging.WARNING)   # and one log line we do not need
    try:
        with contextlib.redirect_stderr(partial):
            torch.export.export(net, (dark,))
    except Exception as exc:  # GuardOnDataDependentSymNode, a RuntimeError
        lines = str(exc).splitlines()
        print(f"{type(exc).__name__}: {lines[0][:100]}")
        print("\n".join(lines[lines.index("The following call raised this error:"):][:3]))
    finally:
        logging.disable(logging.NOTSET)
    print("partial graph at the failure:", *partial.getvalue().strip().splitlines()[-3:], sep="\n")

# %% [markdown]
# The fix is to put the branch **into the graph**. `torch.cond(pred, true_fn, false_fn, operands)`
# is an operator whose two branches are both captured (as subgraphs) and chosen at run time by a
# boolean tensor `pred` with one element. Both functions receive the `operands` tuple and must return
# tensors of the same shape and dtype, and neither may return one of its inputs unchanged:
# `torch.cond` rejects aliasing, so write `lambda t: t.clone()` for a branch that does nothing.
# (When the two sides are cheap, a branch-free formula such as `torch.where(pred, a, b)` computes
# both and selects; that exports too.)

# %% [markdown]
# ### Exercise 2 — `CondBranchyNet` (3 points)
#
# Write `CondBranchyNet(hidden=32)`, an `nn.Module` that computes exactly what `BranchyNet` computes
# (invert the batch when its mean pixel value is above 0.5, strictly; then the same MLP), on every batch
# `BranchyNet` takes (an empty batch and rows already flattened to 784 pixels included), but that
# `torch.export.export` can capture with **both** sides of the branch: no Python `if` on a tensor value
# (use `torch.cond`, or an equivalent branch-free formula). It must have the same parameters
# under the same names and shapes as `BranchyNet` (`fc1`, `fc2`), so that
# `CondBranchyNet().load_state_dict(BranchyNet().state_dict())` works. The constructor below is given
# for that reason; you write `forward`.

# %% [solution] id=cond_net_impl
class CondBranchyNet(nn.Module):
    """BranchyNet without a Python `if` on a tensor value, so that torch.export keeps both sides of the branch."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        ### BEGIN SOLUTION
        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
        ### END SOLUTION


# %% [tests] id=cond_net_tests points=3
_ref = BranchyNet().eval()
_mine = CondBranchyNet().eval()
_mine.load_state_dict(_ref.state_dict())
_dark = torch.rand(3, 1, 28, 28) * 0.4
with torch.no_grad():
    expect_close(_mine(1.0 - _dark), _ref(1.0 - _dark), "CondBranchyNet vs BranchyNet on a bright batch (eager)")
    _ep = torch.export.export(_mine, (_dark,))
    expect_close(_ep.module()(1.0 - _dark), _ref(1.0 - _dark),
                 "the exported CondBranchyNet (exported on a dark batch) on a bright batch")
### BEGIN HIDDEN TESTS
run_hidden("15-05", "cond_net", globals())
### END HIDDEN TESTS

# %% [markdown]
# Look at the exported graph: the comparison is an ATen operator (`aten.gt`), and `cond` is a
# *higher-order operator* whose two branches are separate small graphs (`true_graph_0`,
# `false_graph_0`) stored on the graph module.

# %%
if run_demos():  # exporting takes a fraction of a second: graders skip it
    try:
        _net_c = CondBranchyNet().eval()
        _net_c(dark)
    except NotImplementedError:  # exercise 2 not done yet: show a branch-free model until it is
        print("CondBranchyNet is not written yet (exercise 2): the cells below use a model without the branch.")

        class _NoBranch(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1, self.fc2 = nn.Linear(28 * 28, 32), nn.Linear(32, 10)

            def forward(self, x):
                return self.fc2(torch.relu(self.fc1(x.flatten(1))))

        _net_c = _NoBranch().eval()
    ep = torch.export.export(_net_c, (dark,))
    print(ep.graph_module.code)
    if hasattr(ep.graph_module, "true_graph_0"):
        print(ep.graph_module.true_graph_0.code)

# %% [markdown]
# ## 3. Dynamic shapes
#
# By default `torch.export` **specialises** every dimension to the example's size: the program
# above accepts batches of exactly 4 and raises on anything else. To keep a dimension symbolic,
# declare it with `torch.export.Dim(name, min=..., max=...)` and pass `dynamic_shapes`: a dict
# from the argument's name in `forward` (here `"x"`) to a dict from dimension index to `Dim`.
#
# Export then reasons symbolically: every operation must work for *all* sizes in the range (if the
# code only works for some, export fails and says which constraint it needed), and the exported
# module checks each call against the range. `ep.range_constraints` shows the ranges it recorded.
# Two details: the example's size must lie inside the range, and sizes 0 and 1 are special to the
# symbolic reasoning (a size-1 dimension broadcasts), so PyTorch documents the range as checked
# for sizes of at least 2.

# %%
if run_demos():  # uses the program exported above: graders skip it
    try:
        ep.module()(torch.rand(7, 1, 28, 28))
    except Exception as exc:
        print(f"static export, batch of 7: {type(exc).__name__}: {str(exc)[:80]}")

    batch = Dim("batch", min=3, max=64)
    ep_dyn = torch.export.export(_net_c, (dark,), dynamic_shapes={"x": {0: batch}})
    print(ep_dyn.range_constraints)
    print("batch of 7 ->", tuple(ep_dyn.module()(torch.rand(7, 1, 28, 28)).shape))
    try:
        ep_dyn.module()(torch.rand(65, 1, 28, 28))
    except Exception as exc:
        print(f"batch of 65: {type(exc).__name__}: {str(exc)[:80]}")

# %% [markdown]
# ### Exercise 3 — export with a batch range (3 points)
#
# Write `export_dynamic_batch(model, example, min_batch, max_batch)` that exports `model` (a module
# whose `forward` takes one tensor; the argument may have any name) on `example` so that dimension 0
# of its input is dynamic and the exported module accepts every batch size from `min_batch` to
# `max_batch` inclusive and rejects sizes outside that range (callers pass `3 <= min_batch < max_batch`,
# and `example`'s batch size lies in the range). Return the `ExportedProgram`.
# Export `model` as it is given: a model in training mode (whose BatchNorm normalises with each batch's
# statistics) is exported in training mode, not as an `eval()` copy, and is left in the mode it came in,
# every submodule in its own (one frozen with `.eval()` inside a training model stays in eval mode).
# Do not run `model` before exporting it: its parameters and buffers (a BatchNorm's running statistics)
# stay as they were given.
#
# Hint: `dynamic_shapes` may also be given as a tuple with one entry per positional argument,
# which avoids needing the argument's name.

# %% [solution] id=export_dynamic_impl
def export_dynamic_batch(model: nn.Module, example: torch.Tensor, min_batch: int, max_batch: int):
    """Export ``model`` on ``example`` with dimension 0 dynamic in [min_batch, max_batch]."""
    ### BEGIN SOLUTION
    batch = Dim("batch", min=min_batch, max=max_batch)
    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))
    ### END SOLUTION


# %% [tests] id=export_dynamic_tests points=3
_m = nn.Sequential(nn.Flatten(), nn.Linear(784, 5)).eval()
_ep = export_dynamic_batch(_m, torch.rand(4, 1, 28, 28), 3, 20)
expect(isinstance(_ep, torch.export.ExportedProgram), f"export_dynamic_batch returns an ExportedProgram, got {type(_ep).__name__}")
_x = torch.rand(20, 1, 28, 28)
with torch.no_grad():
    expect_close(_ep.module()(_x), _m(_x), "the exported module on a batch of 20 (the maximum)")
expect_raises(Exception, lambda: _ep.module()(torch.rand(21, 1, 28, 28)), "the exported module on a batch of 21")
### BEGIN HIDDEN TESTS
run_hidden("15-05", "export_dynamic", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Reading an `ExportedProgram`
#
# An `ExportedProgram` is an FX graph (`ep.graph_module`, `ep.graph`) plus bookkeeping:
# `ep.graph_signature` says which placeholders are parameters, buffers and user inputs,
# `ep.state_dict` holds the weights, `ep.range_constraints` the symbolic sizes. Unlike the graphs
# of `fx.symbolic_trace` (topic 15-06), every `call_function` node calls an **ATen operator**, an
# `torch._ops.OpOverload` such as `torch.ops.aten.linear.default` (`str()` of it is
# `"aten.linear.default"`), or a **higher-order operator** (`torch._ops.HigherOrderOperator`)
# such as `cond`, whose subgraphs live as submodules of `ep.graph_module`. (Helpers such as
# `operator.getitem`, which picks one result out of a tuple, are plain Python functions.)
#
# Why care? A deployment runtime implements a fixed set of operators. Before shipping, you list
# what the program calls and compare it with what the runtime supports. `ep.run_decompositions()`
# rewrites the program into the smaller **Core ATen** opset (e.g. `linear` becomes `permute` and
# `addmm`), which is what most runtimes implement.

# %%
def show_targets(gm: fx.GraphModule, indent: str = "") -> None:
    for n in gm.graph.nodes:
        if n.op == "call_function":
            print(f"{indent}{n.name:<14} {str(n.target):<28} {type(n.target).__name__}")


if run_demos():  # the program exported above; decomposing takes about a second: graders skip it
    show_targets(ep.graph_module)
    print("--- after run_decompositions() ---")
    show_targets(ep.run_decompositions().graph_module)

# %% [markdown]
# ### Exercise 4 — operator inventory (3 points)
#
# Write two functions.
#
# - `aten_ops(ep)` returns a `dict` mapping the name (`str(node.target)`) of every operator the
#   program calls to the number of `call_function` nodes that call it. Count a node when its target
#   is a `torch._ops.OpOverload` or a `torch._ops.HigherOrderOperator`, and nothing else (no
#   `operator.getitem`). Count the nodes of **every** graph in the program: the main graph and the
#   subgraphs of higher-order operators (all `fx.GraphModule`s among `ep.graph_module.modules()`).
# - `unsupported_ops(ep, supported)` returns the names counted by `aten_ops(ep)` that are not in the
#   set of strings `supported`, each name once, in `sorted()` order (by code point, so `"aten.clamp.Tensor"`
#   comes before `"aten.clamp.default"`), as a `list`.
#
# Neither function may change `ep` (do not call `run_decompositions` here: analyse the program as given).

# %% [solution] id=op_inventory_impl
def aten_ops(ep) -> dict:
    """Count the ATen and higher-order operator calls of every graph in the ExportedProgram ``ep``."""
    ### BEGIN SOLUTION
    counts = Counter()
    for gm in ep.graph_module.modules():
        if not isinstance(gm, fx.GraphModule):
            continue
        for node in gm.graph.nodes:
            if node.op == "call_function" and isinstance(node.target, (torch._ops.OpOverload,
                                                                       torch._ops.HigherOrderOperator)):
                counts[str(node.target)] += 1
    return dict(counts)
    ### END SOLUTION


def unsupported_ops(ep, supported: set) -> list:
    """The sorted, distinct operator names ``ep`` calls that are not in ``supported``."""
    ### BEGIN SOLUTION
    return sorted(name for name in aten_ops(ep) if name not in supported)
    ### END SOLUTION


# %% [tests] id=op_inventory_tests points=3
_ep = torch.export.export(nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 2)), (torch.rand(3, 6),))
_ops = aten_ops(_ep)
expect_equal(_ops, {"aten.linear.default": 2, "aten.relu.default": 1}, "aten_ops(export of Linear-ReLU-Linear)")
expect_equal(unsupported_ops(_ep, {"aten.relu.default"}), ["aten.linear.default"],
             "unsupported_ops(ep, {'aten.relu.default'})")
### BEGIN HIDDEN TESTS
run_hidden("15-05", "op_inventory", globals())
### END HIDDEN TESTS

# %%
# What a Core-ATen-only runtime would make of our exported CondBranchyNet, before and after decomposition.
core_subset = {"aten.mean.dim", "aten.gt.Scalar", "aten.rsub.Scalar", "aten.clone.default", "aten.view.default",
               "aten.permute.default", "aten.addmm.default", "aten.relu.default", "aten.mean.default"}
if run_demos():  # decomposing takes a second or two: graders skip it
    print("as exported:        ", unsupported_ops(ep, core_subset))
    print("after decomposition:", unsupported_ops(ep.run_decompositions(), core_subset))

# %% [markdown]
# ## 5. Saving, and loading where your class does not exist
#
# The point of both tools is a file that runs without your Python code.
#
# - `torch.jit.save(scripted, path)` writes a zip archive holding the TorchScript code (readable
#   in `scripted.code`), the constants and the weights. `torch.jit.load(path)` rebuilds a
#   `RecursiveScriptModule` from the archive alone. The C++ runtime does the same with
#   `torch::jit::load(path)`, so a file that loads in a fresh Python process that never imported
#   your class will also load in C++.
# - `torch.export.save(ep, path)` writes a `.pt2` archive with the serialised graph, the
#   weights and the shape constraints; `torch.export.load(path)` returns an `ExportedProgram`,
#   and `.module()` makes it callable (an `ExportedProgram` itself is not callable).
#
# Do **not** use `torch.save(model)` for deployment: it pickles a *reference* to your class
# (`__main__.BranchyNet`), so loading needs that class importable, and unpickling a file runs code
# from it; it is a checkpoint format for people who have your source code, not an export format.
#
# For C++ deployment of an `ExportedProgram`, the current route is **AOTInductor**
# (`torch._inductor.aoti_compile_and_package(ep)`), which compiles the graph to a shared library
# packaged in a `.pt2` file that the C++ class `AOTIModelPackageLoader` runs. We do not use it in
# graded code: it runs a C++ compiler, which takes tens of seconds on a laptop CPU and is
# not installed in every environment, well beyond this notebook's time budget.

# %% [markdown]
# ### Exercise 5 — artifacts for a fresh process (3 points)
#
# Write two functions that write deployable files:
#
# - `save_scripted(model, path)`: script `model` with `torch.jit.script` (not trace: it may branch on
#   data) and save it with `torch.jit.save` to `path`.
# - `save_exported(model, example, path)`: export `model` (one tensor argument, which may have any
#   name) on `example` with a dynamic batch dimension (dimension 0) that accepts every batch size from
#   1 to 1024, and write it with `torch.export.save` to `path`.
#
# The grader loads your files in a brand-new Python process that imports only `torch` (not your
# notebook, not your classes), with `torch.jit.load` and `torch.export.load(...).module()`, and runs
# them on inputs whose branch and batch size differ from your example. Callers may hand `model` over in
# training mode: script and export it as it is given (not an `eval()` or frozen copy) and leave it in that
# mode, every submodule in its own. `example`'s batch size is at least 2 (`torch.export` specialises a
# dimension of size 1).

# %% [solution] id=save_load_impl
def save_scripted(model: nn.Module, path: str) -> None:
    """Script ``model`` and write it to ``path`` with torch.jit.save."""
    ### BEGIN SOLUTION
    torch.jit.save(torch.jit.script(model), path)
    ### END SOLUTION


def save_exported(model: nn.Module, example: torch.Tensor, path: str) -> None:
    """Export ``model`` with a dynamic batch (1 to 1024) and write it to ``path`` with torch.export.save."""
    ### BEGIN SOLUTION
    batch = Dim("batch", min=1, max=1024)
    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)
    ### END SOLUTION


# %% [tests] id=save_load_tests points=3
_ref = BranchyNet().eval()
_cond = CondBranchyNet().eval()
_cond.load_state_dict(_ref.state_dict())
_dark = torch.rand(4, 1, 28, 28) * 0.4
with tempfile.TemporaryDirectory() as _tmp:
    save_scripted(_ref, os.path.join(_tmp, "net.pt"))
    save_exported(_cond, _dark, os.path.join(_tmp, "net.pt2"))
    _loaded = torch.jit.load(os.path.join(_tmp, "net.pt"))
    _prog = torch.export.load(os.path.join(_tmp, "net.pt2")).module()
    _bright = 1.0 - torch.rand(9, 1, 28, 28) * 0.4
    with torch.no_grad():
        expect_close(_loaded(_bright), _ref(_bright), "torch.jit.load(your file) on a bright batch of 9")
        expect_close(_prog(_bright), _ref(_bright), "torch.export.load(your file).module() on a bright batch of 9")
### BEGIN HIDDEN TESTS
run_hidden("15-05", "save_load", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### A fresh process, for real
#
# The visible check above loaded the files in the same process, where `BranchyNet` exists. The
# cell below does what the grader does: it writes both files, starts a new Python interpreter that
# imports nothing but `torch`, loads them there and prints the logits' agreement with our model.

# %%
FRESH = r'''
import sys, warnings, torch
warnings.filterwarnings("ignore")
folder = sys.argv[1]
x = torch.load(folder + "/x.pt", weights_only=True)
scripted = torch.jit.load(folder + "/net.pt")
program = torch.export.load(folder + "/net.pt2").module()
with torch.no_grad():
    torch.save({"script": scripted(x), "export": program(x)}, folder + "/out.pt")
print("loaded", type(scripted).__name__, "and", type(program).__name__, "without BranchyNet")
'''

if run_demos():
    ref = BranchyNet().eval()
    cond = CondBranchyNet().eval()
    cond.load_state_dict(ref.state_dict())
    with tempfile.TemporaryDirectory() as tmp:
        save_scripted(ref, f"{tmp}/net.pt")
        save_exported(cond, dark, f"{tmp}/net.pt2")
        x = 1.0 - torch.rand(11, 1, 28, 28) * 0.4
        torch.save(x, f"{tmp}/x.pt")
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-I", "-c", FRESH, tmp], capture_output=True, text=True)
        print(done.stdout.strip(), f"({time.perf_counter() - t0:.1f} s, most of it importing torch)")
        out = torch.load(f"{tmp}/out.pt", weights_only=True)
        with torch.no_grad():
            for k, v in out.items():
                print(f"{k}: max |difference| from the eager model {(v - ref(x)).abs().max().item():.2e}")

# %% [markdown]
# ## 6. Does any of this make inference faster?
#
# Export tools are about *portability*, not speed: a scripted module or an exported program runs the
# same ATen kernels as eager PyTorch. On a small MLP the differences are overheads (Python dispatch,
# the interpreter, the guards of the exported module). We train `BranchyNet` briefly on FashionMNIST,
# check that all three versions agree on test images, and time them; the ratio, not the absolute
# time, is what carries over to other machines. (Speed comes from compiling: `torch.compile`, or
# AOTInductor for an exported program.)

# %%
def time_call(fn, x, repeats: int = 50) -> float:
    with torch.no_grad():
        for _ in range(5):
            fn(x)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn(x)
            times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


if run_demos():  # the probe of exercise 2 runs only with the demo (not at every grading load)
    _cond_written = True
    try:
        CondBranchyNet().eval()(torch.rand(2, 1, 28, 28))
    except NotImplementedError:
        _cond_written = False
        print("CondBranchyNet is not written yet (exercise 2): this demo compares eager and scripted only.")
    import matplotlib.pyplot as plt
    train_set = data.load("fashionmnist", train=True)
    test_set = data.load("fashionmnist", train=False)
    loader = torch.utils.data.DataLoader(train_set, batch_size=128, shuffle=True)
    model = BranchyNet(hidden=64)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    batches = iter(loader)
    for step in tqdm(range(150), desc="training BranchyNet"):
        try:
            xb, yb = next(batches)
        except StopIteration:
            batches = iter(loader)
            xb, yb = next(batches)
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    cond_model = CondBranchyNet(hidden=64).eval()
    cond_model.load_state_dict(model.state_dict())
    xt, yt = next(iter(torch.utils.data.DataLoader(test_set, batch_size=256)))
    versions = {"eager": model, "scripted": torch.jit.script(model)}
    if _cond_written:
        versions["exported"] = torch.export.export(
            cond_model, (xt,), dynamic_shapes=({0: Dim("b", min=1, max=1024)},)).module()
    with torch.no_grad():
        for name, fn in versions.items():
            acc = (fn(xt).argmax(1) == yt).float().mean().item()
            inv_acc = (fn(1.0 - xt).argmax(1) == yt).float().mean().item()
            print(f"{name:>9}: accuracy {acc:.3f}, on inverted images {inv_acc:.3f}")
    times = {name: time_call(fn, xt) for name, fn in versions.items()}
    for name, t in times.items():
        print(f"{name:>9}: {t / times['eager']:.2f} x the eager time per batch of 256")
    fig, ax = plt.subplots(figsize=(5, 2.5))
    ax.bar(list(times), [t / times["eager"] for t in times.values()], color="tab:blue")
    ax.set_ylabel("time / eager time")
    ax.set_title("inference time of one batch of 256 (median of 50)")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## Summary
#
# - **Tracing** records the operations one example executes. Python control flow is evaluated, not
#   recorded: a data-dependent branch is silently baked in. Watch for `TracerWarning`, read
#   `traced.code`, and above all compare the trace with the eager model on inputs that take other paths.
# - **Scripting** compiles a typed subset of Python and keeps control flow, at the price of language
#   restrictions. Both are TorchScript, deprecated in current PyTorch in favour of `torch.export`.
# - **`torch.export`** traces with fake tensors into an ATen-level FX graph. It refuses to guess
#   data-dependent branches (use `torch.cond`, or `torch.where`), specialises shapes unless you
#   declare `Dim`s, and checks declared ranges at run time.
# - The graph is plain data you can inspect: list the operators, compare with what a runtime
#   supports, and decompose to Core ATen when needed.
# - Deploy with `torch.jit.save`/`load` (legacy, C++ `torch::jit::load`) or `torch.export.save`/`load`
#   (and AOTInductor for C++); never with a pickle of your class. Prove it loads in a fresh process.
