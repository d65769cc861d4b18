# %% [markdown]
# # 15-09 · Debugging PyTorch models
#
# A model that crashes is the easy case: Python tells you where. The hard cases are the ones that run:
# the loss turns into `nan` at step 3,000, a layer stops learning, a custom backward is 1 % off, the
# validation accuracy changes every time you evaluate, memory creeps up until the job dies at night.
# None of them raises an error at the line that caused it. This notebook is about tools that move the
# error back to its cause, and about the habit of using them in a fixed order.
#
# **You will build**
# 1. `find_nan_origin`: anomaly mode, used as a tool that *returns* the operation (and the line of your
#    code) whose backward produced a NaN, instead of a wall of traceback.
# 2. `numeric_jacobian` / `check_gradients`: a finite-difference gradient checker written from scratch,
#    whose verdicts agree with `torch.autograd.gradcheck`.
# 3. `GradMonitor`: gradient hooks that name the module whose gradients explode, vanish or stop being
#    finite.
# 4. A bug zoo: five broken snippets (an in-place op on a saved tensor, an accidental detach, a tensor on
#    the wrong device, a missing `zero_grad`, a missing `eval()`), each for you to fix.
# 5. `find_leaks` / `memory_growth`: a leak finder built on `gc` and `weakref`, and the same question
#    asked of `torch.cuda.memory_stats`.
#
# **A systematic workflow** (the order of this notebook): (1) make the failure reproducible and small
# (fixed seeds, one batch); (2) check the data and shapes; (3) check the gradients of anything you wrote
# yourself (section 2); (4) find the first non-finite value (section 1) and the layer whose gradients
# misbehave (section 3); (5) check the training loop itself for the classic pitfalls (section 4);
# (6) watch memory across iterations (section 5). Overfitting a single batch is the fastest end-to-end
# test of steps 2 to 5: a correct model and loop drive the loss on one batch to almost zero.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same functions much harder: new loss functions and
# models you have not seen, subtly wrong autograd Functions, ties, shared parameters, `meta` tensors,
# and training steps that leak in different ways. Heavy demos run only when you run the notebook
# yourself. Keep the `def` and `class` lines of the skeletons as they are (the parameters' names, their order
# and their defaults): a hidden check compares them, and a parameter you add must come after them, with a
# default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import gc
import math
import re
import warnings
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 1. Where did the NaN come from? Anomaly mode
#
# A NaN spreads: once one value is `nan`, every sum, matmul and norm that touches it is `nan` too, so by
# the time you see `loss = nan` the cause is many operations away. The *gradient* NaN is worse: it is
# created inside backward, in code you never wrote.
#
# `torch.autograd.detect_anomaly()` (a context manager; `torch.autograd.set_detect_anomaly(True)` is the
# global switch) does two things:
#
# * during the forward pass it stores, on every graph node, the Python stack of the call that created it
#   (`node.metadata["traceback_"]`, a list of formatted frames);
# * during backward it checks the output of every backward function and raises
#   `RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.` at the first one that
#   returns a NaN, after issuing a warning that contains the stored forward traceback.
#
# So the error names the backward node (`SqrtBackward0`: the backward of `torch.sqrt`), and the warning
# says which line of your forward created it. Anomaly mode makes everything slow: it is a debugging tool,
# never left on in training.
#
# The node that raises is not always the one you suspect. In `torch.where(x > 0, torch.log(x), 0)` the
# forward value is fine everywhere, but at `x == 0` the backward of `log` computes `0 / 0`.

# %%
def demo_loss(x):
    safe = torch.where(x > 0, torch.log(x), torch.zeros_like(x))
    return safe.sum()


_x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
print("forward value:", demo_loss(_x).item())
demo_loss(_x).backward()
print("gradient without anomaly mode (no error, just a NaN):", _x.grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            demo_loss(_x).backward()
    except RuntimeError as err:
        print("anomaly mode raised:", err)
print("the warnings it issued:", len(caught))
# Its message holds the traceback of the forward call that made the node: its last frames are the lines of
# this cell (the frames above them are Jupyter's own machinery, left out here).
report = str(caught[-1].message).split("(Triggered")[0].rstrip().splitlines()
print("\n".join([report[0], "  ...", *report[-4:]]))

# %% [markdown]
# ### Exercise 1 · `find_nan_origin` (3 points)
#
# `find_nan_origin(loss_fn, x)` runs `loss = loss_fn(x)` and `loss.backward()` once, with anomaly detection on,
# where `x` is a leaf tensor that requires a gradient and `loss` is a scalar tensor.
#
# * If backward completes, return `None`.
# * If anomaly mode reports a backward function that returned NaN, return a dict with `"op"`, the name of
#   that backward node as it appears in the error (for example `"SqrtBackward0"`), and `"lineno"`, the line
#   number of the forward call that created that node: the innermost frame of its forward traceback whose
#   file is the file that defines `loss_fn` (`loss_fn.__code__.co_filename`).
# * Any other exception (one that is not anomaly mode's NaN report) propagates unchanged.
# * Anomaly detection is off again when the function returns or raises, and no warning escapes from it
#   (collect them with `warnings.catch_warnings(record=True)`).
# * It works whatever warning filters are active (notebooks often call `warnings.filterwarnings("ignore")`).

# %% [solution] id=anomaly_impl
def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    ### BEGIN SOLUTION
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():
                loss = loss_fn(x)
                loss.backward()
        except RuntimeError as err:
            found = re.search(r"Function '([^']+)' returned nan values", str(err))
            if found is None:
                raise
        else:
            return None
    op = found.group(1)
    filename = loss_fn.__code__.co_filename
    lineno = None
    for w in caught:
        text = str(w.message)
        if f"Error detected in {op}." not in text:
            continue
        for f_name, line in re.findall(r'File "(.*)", line (\d+)', text):
            if f_name == filename:
                lineno = int(line)
    return {"op": op, "lineno": lineno}
    ### END SOLUTION

# %% [tests] id=anomaly_tests points=3
_r = find_nan_origin(demo_loss, torch.tensor([0.0, 1.0, 2.0], requires_grad=True))
expect_equal(_r["op"], "LogBackward0", "find_nan_origin(demo_loss, x)['op'] for x = [0, 1, 2]")
expect_equal(_r["lineno"], demo_loss.__code__.co_firstlineno + 1, "the line of torch.log in demo_loss")
expect_equal(find_nan_origin(demo_loss, torch.tensor([1.0, 2.0], requires_grad=True)), None,
             "find_nan_origin(demo_loss, x) for x = [1, 2] (no NaN)")
expect(not torch.is_anomaly_enabled(), "anomaly detection is off after find_nan_origin returns")
### BEGIN HIDDEN TESTS
run_hidden("15-09", "anomaly", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Is my backward right? Numerical gradient checking
#
# For a function `f` from tensors to a tensor, the Jacobian entry `J[i, j] = d out[i] / d in[j]` can be
# estimated without any calculus by **central differences**:
#
# `J[i, j] ≈ (f(x + eps·e_j)[i] - f(x - eps·e_j)[i]) / (2·eps)`
#
# whose error shrinks like `eps²` (the one-sided difference's only like `eps`). Two rules make it work:
#
# * **float64.** With `eps = 1e-6`, float32's rounding error (about `1e-7` relative) divided by `2·eps` is
#   already of order 0.1: the estimate is noise. In float64 it is about `1e-10`.
# * **A relative test.** Gradients range over orders of magnitude, so `|analytic - numeric|` is compared
#   with `atol + rtol·|numeric|`, as `torch.allclose` does; `torch.autograd.gradcheck` uses
#   `atol=1e-5, rtol=1e-3` by default.
#
# The analytic Jacobian comes from backward, one row at a time: row `i` is the gradient of `out[i]`.
# `gradcheck` does exactly this (its `fast_mode=True` checks a random projection instead, which is far
# cheaper). Below, a correct custom `Function` and one with a typical slip.

# %%
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


class CubeSlip(Cube):
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * g  # forgot the square


_x = torch.randn(4, dtype=torch.float64, requires_grad=True)
print("Cube:    ", torch.autograd.gradcheck(Cube.apply, (_x,), raise_exception=False))
print("CubeSlip:", torch.autograd.gradcheck(CubeSlip.apply, (_x,), raise_exception=False))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # gradcheck warns about float32 inputs, rightly
    print("Cube in float32 looks broken too:",
          torch.autograd.gradcheck(Cube.apply, (_x.float().detach().requires_grad_(),), raise_exception=False))

# %% [markdown]
# ### Exercise 2 · a gradient checker from scratch (4 points)
#
# `fn` takes the tensors in `inputs` and returns one tensor; the inputs are float64 tensors on the CPU (where
# gradient checks are run), and only those with `requires_grad=True` are checked (each of them has at least one
# element, and they may already hold a `.grad` from an earlier backward, which is no part of the Jacobian). Write
# both from scratch: `torch.autograd.gradcheck` is the yardstick the hidden checks hold your verdicts against.
#
# * `numeric_jacobian(fn, inputs, eps=1e-6)` returns a list with one entry per input: `None` for an input
#   that does not require a gradient, otherwise a float64 tensor of shape `(out.numel(), inp.numel())`
#   whose column `j` is the central difference `(f(x + eps·e_j) - f(x - eps·e_j)) / (2·eps)` (flattened)
#   for the `j`-th element of that input (in `reshape(-1)` order; inputs may be non-contiguous). Compute it
#   with autograd off.
# * `check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)` builds the analytic Jacobian of every
#   input that requires a gradient from backward (one row per output element; where no gradient flows, the
#   row is zero) and returns `True` if every entry satisfies `|analytic - numeric| <= atol + rtol·|numeric|`,
#   `False` otherwise (a Python `bool`). Its verdict must agree with
#   `torch.autograd.gradcheck(fn, inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=False)`. (gradcheck
#   also runs backward with a zero incoming gradient and fails a backward that ignores it; the Jacobians alone
#   cannot see that, so the hidden checks use only functions whose backward scales with the gradient it gets.)
# * Both leave the input tensors unchanged (same values afterwards).

# %% [solution] id=gradcheck_impl
def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    ### BEGIN SOLUTION
    with torch.no_grad():
        base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]
        out_numel = fn(*base).numel()
        jacobians = []
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                jacobians.append(None)
                continue
            jac = torch.zeros(out_numel, t.numel(), dtype=torch.float64)
            for j in range(t.numel()):
                plus = [b.clone() for b in base]
                minus = [b.clone() for b in base]
                plus[k].view(-1)[j] += eps
                minus[k].view(-1)[j] -= eps
                diff = fn(*plus).reshape(-1).to(torch.float64) - fn(*minus).reshape(-1).to(torch.float64)
                jac[:, j] = diff / (2 * eps)
            jacobians.append(jac)
    return jacobians
    ### END SOLUTION


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    ### BEGIN SOLUTION
    numeric = numeric_jacobian(fn, inputs, eps)
    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*xs).reshape(-1)
    diff = [x for x in xs if x.requires_grad]
    rows = []
    for i in range(out.numel()):
        # an output that no checked input reaches requires no gradient: every row is zero
        grads = torch.autograd.grad(out[i], diff, retain_graph=True, allow_unused=True) if out.requires_grad \
            else [None] * len(diff)
        rows.append([torch.zeros(x.numel(), dtype=torch.float64) if g is None else g.reshape(-1).double()
                     for g, x in zip(grads, diff)])
    ok = True
    k = 0
    for t, num in zip(inputs, numeric):
        if num is None:
            continue
        analytic = torch.stack([r[k] for r in rows]) if rows else torch.zeros_like(num)
        k += 1
        if not bool(((analytic - num).abs() <= atol + rtol * num.abs()).all()):
            ok = False
    return ok
    ### END SOLUTION

# %% [tests] id=gradcheck_tests points=4
_x = torch.randn(3, dtype=torch.float64, requires_grad=True)
(_j,) = numeric_jacobian(Cube.apply, (_x,))
expect_close(_j, torch.diag(3 * _x.detach() ** 2), "numeric_jacobian(Cube.apply, (x,)) for 3 random x",
             atol=1e-6)
expect_equal(check_gradients(Cube.apply, (_x,)), True, "check_gradients(Cube.apply, (x,))")
expect_equal(check_gradients(CubeSlip.apply, (_x,)), False, "check_gradients(CubeSlip.apply, (x,))")
expect_equal(numeric_jacobian(lambda a, b: a * b, (_x, torch.ones(3, dtype=torch.float64)))[1], None,
             "the entry for an input that does not require a gradient")
### BEGIN HIDDEN TESTS
run_hidden("15-09", "gradcheck", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Which layer is misbehaving? Gradient monitoring with hooks
#
# Exploding gradients (norms that grow by orders of magnitude per layer) and vanishing ones (norms near
# zero in early layers) are properties of *layers*, so the useful question is "which module?". Reading
# `p.grad` after backward answers a slightly different question: `.grad` accumulates over every backward
# since the last `zero_grad()`. A hook answers exactly "what did this backward deliver":
# `p.register_hook(fn)` calls `fn(grad)` with the gradient each backward delivers to `p`, once per
# backward even when `p` is used several times in the forward pass (the uses are summed first).
#
# Two details of real models:
# * **Modules without parameters** (ReLU, Dropout, pooling) have nothing to report.
# * **Shared parameters**: tied input/output embeddings are one `Parameter` held by two modules. Each of
#   them holds it, so each reports it; `named_parameters()` lists it only once, which is why a monitor
#   should walk `named_modules()` and each module's own parameters (`parameters(recurse=False)`).

# %% [markdown]
# ### Exercise 3 · `GradMonitor` (4 points)
#
# `GradMonitor(model)` registers a tensor hook (`register_hook`) on every parameter of `model` that
# requires a gradient, and records the gradients the hooks receive. The model may be on the CPU or on a GPU.
#
# * `norms()` returns a dict `{module name: float}` for every module of `model.named_modules()` (the root
#   is `""`) that directly holds at least one parameter requiring a gradient (`parameters(recurse=False)`).
#   The value is the L2 norm over all of that module's own such parameters of the gradient received since
#   the monitor was created or last cleared (a parameter that received several gradients counts their sum;
#   one that received none counts zero). A parameter held by several modules counts for each of them.
# * `clear()` forgets every recorded gradient; `.grad` is not touched.
# * `diagnose(low, high)` returns `None` when every norm is finite and within `[low, high]`; otherwise a
#   tuple `(kind, name)`. `kind` is `"nonfinite"` if any norm is NaN or infinite (then `name` is the first
#   such module in `named_modules()` order); else `"exploding"` if some norm is above `high` (the module
#   with the largest norm); else `"vanishing"` (the module with the smallest norm below `low`). Ties go to
#   the module that comes first in `named_modules()` order.
# * `remove()` removes every hook, after which backward records nothing.

# %% [solution] id=monitor_impl
class GradMonitor:
    def __init__(self, model: nn.Module):
        ### BEGIN SOLUTION
        self.owners = []  # (module name, list of its own trainable parameters)
        self.sums = {}
        self.handles = []
        seen = set()

        def recorder(p):  # one hook per parameter, adding what it receives to this monitor's sums
            def hook(grad):
                g = grad.detach().clone()
                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g
            return hook

        for name, module in model.named_modules():
            own = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if own:
                self.owners.append((name, own))
            for p in own:
                if id(p) not in seen:
                    seen.add(id(p))
                    self.handles.append(p.register_hook(recorder(p)))
        ### END SOLUTION

    def norms(self) -> dict:
        ### BEGIN SOLUTION
        out = {}
        for name, params in self.owners:
            total = torch.zeros((), dtype=torch.float64)
            for p in params:
                if id(p) in self.sums:
                    total = total + self.sums[id(p)].double().pow(2).sum()
            out[name] = float(total.sqrt())
        return out
        ### END SOLUTION

    def clear(self) -> None:
        ### BEGIN SOLUTION
        self.sums = {}
        ### END SOLUTION

    def diagnose(self, low: float, high: float):
        ### BEGIN SOLUTION
        norms = list(self.norms().items())
        for name, n in norms:
            if not math.isfinite(n):
                return ("nonfinite", name)
        big = [(name, n) for name, n in norms if n > high]
        if big:
            top = max(n for _, n in big)
            return ("exploding", next(name for name, n in big if n == top))
        small = [(name, n) for name, n in norms if n < low]
        if small:
            bottom = min(n for _, n in small)
            return ("vanishing", next(name for name, n in small if n == bottom))
        return None
        ### END SOLUTION

    def remove(self) -> None:
        ### BEGIN SOLUTION
        for h in self.handles:
            h.remove()
        self.handles = []
        ### END SOLUTION

# %% [tests] id=monitor_tests points=4
_net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
_mon = GradMonitor(_net)
_net(torch.randn(5, 4)).pow(2).sum().backward()
_norms = _mon.norms()
expect_equal(sorted(_norms), ["0", "2"], "the modules GradMonitor.norms() reports (ReLU holds no parameter)")
_want = math.sqrt(sum(float(p.grad.pow(2).sum()) for p in _net[2].parameters()))
expect_close(torch.tensor(_norms["2"]), torch.tensor(_want), "norms()['2'] after one backward", rtol=1e-4)
expect_equal(_mon.diagnose(1e-12, 1e-12)[0], "exploding", "diagnose(1e-12, 1e-12)[0]")
_mon.clear()
expect_equal(_mon.norms()["0"], 0.0, "norms()['0'] after clear()")
_mon.remove()
### BEGIN HIDDEN TESTS
run_hidden("15-09", "monitor", globals())
### END HIDDEN TESTS

# %%
# Demo: a deep tanh network on CIFAR-10 (or its synthetic stand-in), badly and well initialised.
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    cifar = load("cifar10", train=True)
    xb, yb = next(iter(DataLoader(cifar, batch_size=256, shuffle=True)))
    try:
        GradMonitor(nn.Linear(2, 2)).remove()
        _monitor_written = True
    except NotImplementedError:
        _monitor_written = False
        print("GradMonitor is not written yet (exercise 3): the plot appears once it is.")
    if _monitor_written:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for label, gain in [("std 0.01 (vanishing)", 0.01), ("Xavier", None), ("std 0.3 (saturating tanh)", 0.3)]:
            torch.manual_seed(0)
            layers = [nn.Flatten()]
            width = 3 * 32 * 32
            for _ in range(8):
                lin = nn.Linear(width, 256)
                if gain is None:
                    nn.init.xavier_normal_(lin.weight, gain=5 / 3)
                else:
                    nn.init.normal_(lin.weight, std=gain)
                layers += [lin, nn.Tanh()]
                width = 256
            layers.append(nn.Linear(256, 10))
            net = nn.Sequential(*layers)
            mon = GradMonitor(net)
            F.cross_entropy(net(xb), yb).backward()
            norms = mon.norms()
            mon.remove()
            ax.semilogy(range(len(norms)), list(norms.values()), marker="o", label=label)
            print(f"{label:24s} first/last layer gradient-norm ratio: "
                  f"{list(norms.values())[0] / list(norms.values())[-1]:.3g}, diagnose: {mon.diagnose(1e-4, 1e2)}")
        ax.set_xlabel("layer (input to output)")
        ax.set_ylabel("gradient norm")
        ax.legend()
        plt.tight_layout()
        plt.show()

# %% [markdown]
# ## 4. A bug zoo
#
# Five snippets below run (or almost run) and are wrong. Each one is a classic:
#
# * **In-place op on a saved tensor.** `tanh` saves its *output* for backward (`d tanh = 1 - tanh²`);
#   `h += 1` changes that output, and backward raises "modified by an inplace operation".
# * **An accidental detach.** `.detach()`, `.item()`, `.numpy()`, `torch.tensor(t)` or `.data` cut the graph:
#   every parameter before the cut silently gets no gradient (`p.grad is None`).
# * **The wrong device.** A tensor created inside the forward without `device=`/`dtype=` lands on the CPU
#   in float32, whatever the input is. On a GPU this is the "Expected all tensors to be on the same
#   device" error. No GPU here? The `meta` device (shapes and dtypes, no data) catches the same mistake:
#   `torch.empty(4, 3, device="meta") + torch.arange(3.0)` raises too.
# * **A missing `zero_grad()`.** Gradients accumulate; without clearing them every step uses the sum of
#   all previous gradients.
# * **A missing `eval()`.** Dropout and batch norm behave differently in training mode: predictions
#   become random and batch statistics leak between examples.

# %%
def broken_tanh_loss(x, w):
    h = torch.tanh(x @ w)
    h += 1  # shifts the activations to [0, 2]
    return (h ** 2).mean()


def broken_two_layer_loss(x, w1, w2):
    h = torch.relu(x @ w1)
    h = h.detach().clone()  # "keep a copy of the hidden activations for logging"
    return ((h @ w2) ** 2).mean()


def broken_add_positions(x):
    # x: (batch, seq, dim); adds k / seq to every feature of position k
    pos = torch.arange(x.shape[1]).unsqueeze(1) / x.shape[1]
    return x + pos


def broken_train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in batches:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss)
    return losses


def broken_predict_proba(model, x):
    return F.softmax(model(x), dim=1)


_w = torch.randn(3, 2, requires_grad=True)
expect_raises(RuntimeError, lambda: broken_tanh_loss(torch.randn(4, 3), _w).backward(), "broken_tanh_loss",
              match="inplace")
_ = expect_raises(RuntimeError, lambda: broken_add_positions(torch.empty(2, 5, 3, device="meta")),
                  "broken_add_positions on a meta tensor")

# %% [markdown]
# ### Exercise 4 · fix the zoo (5 points)
#
# Write fixed versions. Each must compute what the broken one was meant to compute:
#
# * `fixed_tanh_loss(x, w)` returns `((tanh(x @ w) + 1) ** 2).mean()`, and backward through it works.
# * `fixed_two_layer_loss(x, w1, w2)` returns `((relu(x @ w1) @ w2) ** 2).mean()` with gradients reaching
#   `w1` as well as `w2`.
# * `fixed_add_positions(x)` returns `x + k / seq` at position `k` (as above), with the result on `x`'s
#   device and of `x`'s dtype, for any device, `meta` included.
# * `fixed_train(model, batches, lr)` runs one plain SGD step (`torch.optim.SGD(model.parameters(), lr=lr)`)
#   per batch on the cross-entropy of that batch alone, and returns the list of batch losses as Python
#   floats (not tensors: a list of loss tensors keeps every graph alive).
# * `fixed_predict_proba(model, x)` returns the softmax probabilities of `model(x)` over dimension 1 (the
#   classes, as in the broken version) computed in evaluation
#   mode and without building a graph, and leaves every module of the model in the mode (training or
#   evaluation) it was in, also when `model(x)` raises (modes may be mixed: a model in training mode may hold a
#   frozen batch norm in evaluation mode).

# %% [solution] id=zoo_impl
def fixed_tanh_loss(x, w):
    ### BEGIN SOLUTION
    h = torch.tanh(x @ w)
    h = h + 1
    return (h ** 2).mean()
    ### END SOLUTION


def fixed_two_layer_loss(x, w1, w2):
    ### BEGIN SOLUTION
    h = torch.relu(x @ w1)
    return ((h @ w2) ** 2).mean()
    ### END SOLUTION


def fixed_add_positions(x):
    ### BEGIN SOLUTION
    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]
    return x + pos
    ### END SOLUTION


def fixed_train(model, batches, lr):
    ### BEGIN SOLUTION
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    history = []
    for inputs, targets in batches:
        optimizer.zero_grad()  # the missing line: without it, every step adds to the old gradients
        step_loss = F.cross_entropy(model(inputs), targets)
        step_loss.backward()
        optimizer.step()
        history.append(step_loss.item())
    return history
    ### END SOLUTION


def fixed_predict_proba(model, x):
    ### BEGIN SOLUTION
    modes = [(m, m.training) for m in model.modules()]  # each module's own: modes may be mixed
    model.eval()
    try:
        with torch.no_grad():
            return F.softmax(model(x), dim=1)
    finally:
        for m, was_training in modes:
            m.training = was_training
    ### END SOLUTION

# %% [tests] id=zoo_tests points=5
_x, _w = torch.randn(4, 3, dtype=torch.float64), torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
_loss = fixed_tanh_loss(_x, _w)
expect_close(_loss, ((torch.tanh(_x @ _w) + 1) ** 2).mean(), "fixed_tanh_loss(x, w)")
_loss.backward()
_w1 = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
fixed_two_layer_loss(_x, _w1, torch.randn(5, 2, dtype=torch.float64)).backward()
expect(_w1.grad is not None, "w1.grad is set after fixed_two_layer_loss(x, w1, w2).backward()")
_out = fixed_add_positions(torch.empty(2, 5, 3, device="meta", dtype=torch.float16))
expect_equal((str(_out.device), _out.dtype, tuple(_out.shape)), ("meta", torch.float16, (2, 5, 3)),
             "device, dtype and shape of fixed_add_positions(x) for a float16 meta x")
_m = nn.Sequential(nn.Linear(3, 8), nn.Dropout(0.5), nn.Linear(8, 2)).train()
_p1, _p2 = fixed_predict_proba(_m, _x.float()), fixed_predict_proba(_m, _x.float())
expect_equal(_p1, _p2, "two calls of fixed_predict_proba(model, x) (dropout must be off)")
expect(_m.training, "the model is back in training mode after fixed_predict_proba")
_losses = fixed_train(nn.Linear(3, 2), [(_x.float(), torch.tensor([0, 1, 1, 0]))] * 3, 0.1)
expect(all(type(v) is float for v in _losses), "fixed_train returns Python floats")
### BEGIN HIDDEN TESTS
run_hidden("15-09", "zoo", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Memory that never comes back
#
# A "leak" in PyTorch is almost never lost memory: it is memory something still refers to. The classic
# references are `history.append(loss)` (the loss tensor keeps its whole graph, activations included),
# `total_loss += loss` (the same, as one ever-growing graph), caches keyed by step, hooks that store
# outputs, and exceptions whose traceback keeps a frame full of tensors alive.
#
# Two instruments:
#
# * **Python's `gc`.** `gc.get_objects()` lists every object the garbage collector tracks, tensors
#   included; after `gc.collect()` whatever is still listed is reachable. Comparing the live tensors after
#   each iteration shows which ones are born and never die. The instrument must not become the leak: hold
#   what you have seen through `weakref.ref` (it returns `None` once the tensor has died), never in a
#   plain list. One trap: tensors compare elementwise (`a == b` is a tensor), so `t in some_list` and
#   `weakref.WeakSet` do not work for them; key your records by `id(t)` and check that the weak reference
#   still points at the same object (`r() is t`), because a dead tensor's id can be reused.
# * **`torch.cuda.memory_stats()`**, on a GPU: a dict of allocator counters, among them
#   `"allocated_bytes.all.current"` (bytes held by live tensors) and `"allocation.all.current"` (their
#   number). Snapshots after each iteration that grow every time mean a leak; the first iteration is
#   allowed to grow (optimizer state, cached kernels, lazily built buffers).
#
# A leak finder should only blame tensors that were *born during* an iteration: model parameters and data
# that existed before are not leaks, and neither is optimizer state created in the first iteration nor the
# values the last iteration still holds.

# %% [markdown]
# ### Exercise 5 · `find_leaks` and `memory_growth` (4 points)
#
# * `find_leaks(step, n_iters)` calls `step()` `n_iters` times (`n_iters >= 3`). After each call it runs
#   `gc.collect()` and notes which tensors (`torch.Tensor` instances in `gc.get_objects()`) are alive and
#   were not alive before that call: those were born in that iteration. It returns the shapes (tuples) of
#   the tensors born in iterations 2 to `n_iters - 1` that are still alive after the last call, in any
#   order. It holds no strong reference to any tensor between calls of `step` (use `weakref`).
# * `memory_growth(snapshots)` takes a list of at least two dicts shaped like `torch.cuda.memory_stats()`,
#   one taken after each iteration, and returns `{"bytes_per_iter": int, "allocs_per_iter": int,
#   "leaking": bool}`: the smallest increase of `"allocated_bytes.all.current"` (respectively
#   `"allocation.all.current"`) between consecutive snapshots, and whether that smallest byte increase is
#   positive (memory grew in every iteration after the first). It raises `ValueError` for fewer than two
#   snapshots.

# %% [solution] id=leaks_impl
def _live_tensors():
    gc.collect()
    # issubclass(type(o), ...) rather than isinstance: isinstance reads o.__class__, which a few deprecated
    # module objects turn into a warning.
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    ### BEGIN SOLUTION
    def alive():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    seen = alive()
    born = []
    for _ in range(n_iters):
        step()
        now = alive()
        born.append([r for key, r in now.items() if key not in seen or seen[key]() is not r()])
        seen = now
    del now, seen
    gc.collect()
    return [tuple(t.shape) for group in born[1:n_iters - 1] for r in group if (t := r()) is not None]
    ### END SOLUTION


def memory_growth(snapshots: list) -> dict:
    ### BEGIN SOLUTION
    if len(snapshots) < 2:
        raise ValueError("memory_growth needs at least two snapshots")
    b = [int(s["allocated_bytes.all.current"]) for s in snapshots]
    a = [int(s["allocation.all.current"]) for s in snapshots]
    per_bytes = min(y - x for x, y in zip(b, b[1:]))
    per_allocs = min(y - x for x, y in zip(a, a[1:]))
    return {"bytes_per_iter": per_bytes, "allocs_per_iter": per_allocs, "leaking": per_bytes > 0}
    ### END SOLUTION

# %% [tests] id=leaks_tests points=4
_history = []


def _leaky_step():
    _history.append(torch.randn(7, 3))


expect_equal(sorted(find_leaks(_leaky_step, 4)), [(7, 3)] * 2, "find_leaks(step that appends to a list, 4)")
_last = {}


def _cache_last_step():
    _last["out"] = torch.randn(4)


expect_equal(find_leaks(_cache_last_step, 3), [], "find_leaks(step that keeps only its last output, 3)")
_snaps = [{"allocated_bytes.all.current": b, "allocation.all.current": a}
          for b, a in [(1024, 2), (2048, 3), (3584, 5), (4608, 6)]]
expect_equal(memory_growth(_snaps), {"bytes_per_iter": 1024, "allocs_per_iter": 1, "leaking": True},
             "memory_growth of four growing snapshots")
expect_raises(ValueError, lambda: memory_growth(_snaps[:1]), "memory_growth of one snapshot")
### BEGIN HIDDEN TESTS
run_hidden("15-09", "leaks", globals())
### END HIDDEN TESTS

# %%
# Demo: a CIFAR-10 training loop that keeps its loss tensors, found by find_leaks (and on a GPU by
# memory_growth), then the fixed loop.
if run_demos():
    from torch.utils.data import DataLoader
    from tqdm.auto import tqdm

    from course.student.data import load

    cifar = load("cifar10", train=True)
    loader = iter(DataLoader(cifar, batch_size=64, shuffle=True))
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                        nn.Linear(128, 10)).to(DEVICE)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    kept = []

    def train_step(keep_tensor):
        xb, yb = next(loader)
        loss = F.cross_entropy(net(xb.to(DEVICE)), yb.to(DEVICE))
        opt.zero_grad()
        loss.backward()
        opt.step()
        kept.append(loss if keep_tensor else loss.item())

    for keep in (True, False):
        kept.clear()
        try:
            leaked = find_leaks(lambda: train_step(keep), 6)
        except NotImplementedError:
            print("find_leaks is not written yet (exercise 5): the leaked tensors are listed once it is.")
            break
        print(f"keeping {'loss tensors' if keep else 'loss.item()'}: {len(leaked)} tensors leaked: {leaked}")
    if DEVICE.type == "cuda":
        for keep in (True, False):
            kept.clear()
            snaps = []
            for _ in tqdm(range(20), desc="cuda steps"):
                train_step(keep)
                snaps.append(torch.cuda.memory_stats())
            try:
                growth = memory_growth(snaps)
            except NotImplementedError:
                print("memory_growth is not written yet (exercise 5): the growth per step appears once it is.")
                break
            print(f"keeping {'loss tensors' if keep else 'floats'}: {growth}")

# %% [markdown]
# ## 6. Checklist
#
# | symptom | first tool |
# |---|---|
# | loss or gradients become `nan`/`inf` | `detect_anomaly` on one failing batch (`find_nan_origin`) |
# | a custom `Function` or a hand-written backward | `gradcheck` in float64 (`check_gradients`), several shapes |
# | training stalls, or diverges after a while | per-module gradient norms (`GradMonitor`), then the learning rate |
# | "modified by an inplace operation" | the op named in the error saved a tensor you changed: make that op out of place |
# | some parameter never changes | `p.grad is None` after backward: a detach, `.item()`, `torch.tensor(...)` cut the graph |
# | "Expected all tensors to be on the same device" | tensors created without `device=`; test with `meta` tensors |
# | evaluation results change from run to run | a missing `model.eval()` (dropout, batch norm) |
# | memory grows every iteration | `find_leaks` / `memory_growth`; look for tensors kept in lists or dicts |
