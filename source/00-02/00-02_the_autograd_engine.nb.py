# %% [markdown]
# # 00-02 · The autograd engine
#
# When a tensor with `requires_grad=True` goes through an operation, PyTorch writes down a *node* that
# knows how to send a gradient back to that operation's inputs. `loss.backward()` is nothing more than a
# walk over those nodes, from the loss back to the parameters. This notebook opens that graph up: you walk
# it, you write a tiny engine of your own that does the same walk, you change what the graph keeps in
# memory, and you learn which "no graph" mode to pick when evaluating a model. Module 15 builds on all of
# it (custom Functions, hooks, checkpointing, memory).
#
# **You will build**
# 1. `graph_nodes` and `topo_order`: every node behind a tensor, and an order in which backward may run them.
# 2. `Value`: a reverse-mode engine of your own over tensors, checked against `torch.autograd.grad`.
# 3. `pack_compressed`, `unpack_compressed` and `compressed_saved_tensors`: activations saved for backward
#    in bfloat16, restored on use.
# 4. `evaluate`: a model run without a graph, with `no_grad` or `inference_mode` as the caller needs.
# 5. `checkpoint`: activation checkpointing as an `autograd.Function` that recomputes its block in backward.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same functions much harder: random graphs and
# expressions, several shapes with broadcasting, other models, and what your code leaves behind. The
# demos (FashionMNIST batches, plots) only run when you run the notebook yourself; together they take
# about half a minute on a laptop CPU. Keep the `def` and `class` lines of the skeletons as they are (the
# parameters' names, their order and their defaults): a hidden check compares them, and a parameter you add must
# come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F

from course.student.checks import expect, expect_close, expect_equal, expect_gradcheck, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)


def make_demo_mlp():
    """A small MLP for 28x28 images, used by the demos."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))


# %% [markdown]
# ## 1. The graph behind a tensor
#
# Every non-leaf tensor that requires grad has a `grad_fn`: the node that will receive its gradient.
# A node's `next_functions` is a tuple of `(node, input_nr)` pairs, one per input of the operation:
#
# * an input that was itself computed gives that computation's node (`MulBackward0`, `AddmmBackward0`...);
# * a **leaf** that requires grad (a parameter) gives an `AccumulateGrad` node, whose job is to add the
#   incoming gradient into `leaf.grad`;
# * an input that needs no gradient (a constant, a detached tensor) gives `None`.
#
# A tensor used twice feeds the same node twice, so the graph is not a tree but a DAG: two paths can
# meet again (a *diamond*). Backward must not run a node before *all* the gradient for it has arrived,
# which is exactly the rule of a topological order: a node comes before every node it feeds gradient to.

# %%
w = torch.randn(3, requires_grad=True)
c = torch.randn(3)                         # a constant: no grad_fn, no AccumulateGrad
y = w * c
z = (y.exp() + y.sin()).sum()              # y feeds two nodes: a diamond
print("z.grad_fn:", z.grad_fn)
print("its inputs:", z.grad_fn.next_functions)
mul = y.grad_fn
print("MulBackward0's inputs:", mul.next_functions)   # (AccumulateGrad for w, None for c)
print("the same node object each time:", mul.next_functions[0][0] is y.grad_fn.next_functions[0][0])

# %% [markdown]
# ### Exercise 1 · `graph_nodes` and `topo_order` (3 points)
#
# Implement `graph_nodes(t)` and `topo_order(t)` for a tensor `t`.
#
# * `graph_nodes(t)` returns a list of every node reachable from `t.grad_fn` by following `next_functions`,
#   `t.grad_fn` itself included, in any order.
# * `AccumulateGrad` nodes of leaves are included; `None` entries of `next_functions` are skipped.
# * Each node appears exactly once, even when several paths reach it.
# * `topo_order(t)` returns the same nodes as `graph_nodes(t)`, ordered so that every node comes before
#   each node in its `next_functions`.
# * A tensor with no `grad_fn` (a leaf, or a result computed without a graph) gives an empty list from both.
# * Neither function runs backward or changes the graph: afterwards `backward()` still works once.
# * A graph may be thousands of nodes deep (a recurrence unrolled over many steps): both functions work at
#   any depth.

# %% [solution] id=graph_impl
def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    ### BEGIN SOLUTION
    if t.grad_fn is None:
        return []
    seen, out, stack = set(), [], [t.grad_fn]
    seen.add(t.grad_fn)
    while stack:
        node = stack.pop()
        out.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return out
    ### END SOLUTION


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    ### BEGIN SOLUTION
    if t.grad_fn is None:
        return []
    post, done = [], set()
    stack = [(t.grad_fn, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            post.append(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in done:
                stack.append((nxt, False))
    return post[::-1]
    ### END SOLUTION


# %% [tests] id=graph_tests points=3
_w = torch.randn(3, requires_grad=True)
_y = _w * torch.randn(3)
_z = (_y.exp() + _y.sin()).sum()
_nodes = graph_nodes(_z)
expect_equal(sorted(type(n).__name__ for n in _nodes),
             sorted(["SumBackward0", "AddBackward0", "ExpBackward0", "SinBackward0", "MulBackward0",
                     "AccumulateGrad"]), "the node names of graph_nodes(z) for the diamond above")
_order = topo_order(_z)
expect_equal(len(_order), 6, "len(topo_order(z))")
_pos = {n: i for i, n in enumerate(_order)}
expect(all(_pos[n] < _pos[m] for n in _order for m, _ in n.next_functions if m is not None),
       "every node of topo_order(z) comes before the nodes it feeds")
expect_equal(graph_nodes(_w), [], "graph_nodes(w) for a leaf")
### BEGIN HIDDEN TESTS
run_hidden("00-02", "graph", globals())
### END HIDDEN TESTS

# %%
# Demo: draw the graph of a small MLP's loss on a FashionMNIST batch (matplotlib only).
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    xb, yb = next(iter(DataLoader(load("fashionmnist", train=False), batch_size=32)))
    loss = F.cross_entropy(make_demo_mlp()(xb), yb)
    order = topo_order(loss)
    # depth = the longest path from the loss, so every edge points down the picture
    depth = {order[0]: 0}
    for n in order:
        for m, _ in n.next_functions:
            if m is not None:
                depth[m] = max(depth.get(m, 0), depth[n] + 1)
    rows = {}
    for n in order:
        rows.setdefault(depth[n], []).append(n)
    pos = {n: (i - (len(r) - 1) / 2, -d) for d, r in rows.items() for i, n in enumerate(r)}
    fig, ax = plt.subplots(figsize=(8, 6))
    for n in order:
        for m, _ in n.next_functions:
            if m is not None:
                ax.annotate("", xy=pos[m], xytext=pos[n], arrowprops=dict(arrowstyle="->", color="gray"))
    for n, (px, py) in pos.items():
        ax.text(px, py, type(n).__name__, ha="center", va="center", fontsize=8,
                bbox=dict(boxstyle="round", fc="lightyellow"))
    ax.set_xlim(-2.5, 2.5)
    ax.set_ylim(-max(depth.values()) - 0.5, 0.5)
    ax.axis("off")
    ax.set_title("The backward graph of cross_entropy(mlp(x), y): gradient flows down")
    plt.show()

# %% [markdown]
# ## 2. An engine of your own
#
# Reverse mode needs two things from each operation: its value, and a rule that turns the gradient of its
# output into gradients of its inputs (a vector-Jacobian product). For `out = a * b` the rule is
# `grad_a = grad_out * b`, `grad_b = grad_out * a`. Two details decide whether the numbers are right:
#
# * **Accumulation.** A value used twice receives gradient from both uses; the contributions add up. That
#   is why backward runs in topological order: by the time a node runs, all its contributions have arrived.
# * **Broadcasting.** If `a` has shape `(3, 1)` and `b` shape `(4,)`, then `out` and `grad_out` have
#   shape `(3, 4)`. The gradient for `a` must be summed back to `(3, 1)`: `g.sum_to_size(a.shape)`.
#
# The worked example is a scalar engine with one operation, to show the shape of the code.

# %%
class Scalar:
    """A worked example: a float that remembers how it was made (only multiplication)."""

    def __init__(self, v, parents=(), rule=None):
        self.v, self.parents, self.rule, self.grad = v, parents, rule, 0.0

    def __mul__(self, other):
        return Scalar(self.v * other.v, (self, other), lambda g: (g * other.v, g * self.v))

    def backward(self):
        order, seen = [], set()

        def visit(s):
            if id(s) not in seen:
                seen.add(id(s))
                for p in s.parents:
                    visit(p)
                order.append(s)
        visit(self)
        grads = {id(self): 1.0}
        for s in reversed(order):               # the output first, the leaves last
            g = grads.get(id(s), 0.0)
            if not s.parents:
                s.grad += g
            else:
                for p, gp in zip(s.parents, s.rule(g)):
                    grads[id(p)] = grads.get(id(p), 0.0) + gp


a = Scalar(3.0)
out = a * a * Scalar(2.0)                      # 2 a^2: d/da = 4 a = 12
out.backward()
print("engine:", a.grad)
ta = torch.tensor(3.0, requires_grad=True)
print("torch: ", torch.autograd.grad(ta * ta * 2.0, ta)[0].item())

# %% [markdown]
# ### Exercise 2 · `Value`, a tensor engine (4 points)
#
# Write a class `Value` that wraps a floating-point tensor and records how it was computed, and a
# `backward()` that computes gradients by walking that record in reverse, like the example above.
#
# * `Value(data)` takes a tensor and stores it as `.data`; `.grad` is `None` until a `backward()` reaches it.
# * It supports `a + b`, `a - b`, `a * b` (both `Value`s, broadcasting like torch), `-a`, `a @ b` (2-D
#   matrices), and the methods `a.exp()`, `a.log()`, `a.tanh()`, `a.relu()` and `a.sum()` (all elements).
#   Each returns a new `Value` whose `.data` equals torch's result for the same tensors: its dtype (promoted as
#   torch promotes) and its values (for `-a`, `+`, `-` and `*` the sign of a zero too: `-(+0.)` is `-0.`).
# * `out.backward()` on a 0-dim `out` adds d(out)/d(leaf) into `.grad` of every leaf `out` depends on (a
#   leaf is a `Value` you built with `Value(data)`), with the leaf's shape, dtype and device. In float16 too
#   it is torch's gradient: no rule may overflow where torch's gradient does not (`log`'s is `g / a`; `g * (1 / a)`
#   is inf for `a` below 1.5e-5).
# * A second `backward()` adds to the gradients already there, as torch does; a leaf the output does not
#   depend on keeps `.grad` as `None`.
# * Each leaf's `.grad` is a tensor of its own: it shares memory with no other leaf's `.grad` or `.data`.
# * Write the engine yourself: it must not use `torch.autograd` and must work under `torch.no_grad()`.
# * For `relu`, the derivative at exactly 0 is 0, as in torch.
# * An expression may be thousands of operations deep: `backward()` works at any depth.

# %% [solution] id=engine_impl
class Value:
    """A tensor that records the operations that made it, for reverse-mode differentiation."""

    def __init__(self, data, _parents=(), _rule=None):
        ### BEGIN SOLUTION
        self.data = data
        self.grad = None
        self._parents = _parents
        self._rule = _rule  # grad_out -> one gradient per parent
        ### END SOLUTION

    @staticmethod
    def _unbroadcast(g, like):
        ### BEGIN SOLUTION
        g = g.sum_to_size(like.shape) if g.shape != like.shape else g
        return g.to(like.dtype)  # mixed dtypes: the result was promoted, the gradient is the leaf's
        ### END SOLUTION

    def __add__(self, other):
        ### BEGIN SOLUTION
        a, b = self.data, other.data
        return Value(a + b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(g, b)))
        ### END SOLUTION

    def __sub__(self, other):
        ### BEGIN SOLUTION
        a, b = self.data, other.data
        return Value(a - b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(-g, b)))
        ### END SOLUTION

    def __mul__(self, other):
        ### BEGIN SOLUTION
        a, b = self.data, other.data
        return Value(a * b, (self, other),
                     lambda g: (self._unbroadcast(g * b, a), self._unbroadcast(g * a, b)))
        ### END SOLUTION

    def __neg__(self):
        ### BEGIN SOLUTION
        return Value(-self.data, (self,), lambda g: (-g,))
        ### END SOLUTION

    def __matmul__(self, other):
        ### BEGIN SOLUTION
        a, b = self.data, other.data
        return Value(a @ b, (self, other), lambda g: (g @ b.T, a.T @ g))
        ### END SOLUTION

    def exp(self):
        ### BEGIN SOLUTION
        e = self.data.exp()
        return Value(e, (self,), lambda g: (g * e,))
        ### END SOLUTION

    def log(self):
        ### BEGIN SOLUTION
        a = self.data
        return Value(a.log(), (self,), lambda g: (g / a,))
        ### END SOLUTION

    def tanh(self):
        ### BEGIN SOLUTION
        t = self.data.tanh()
        return Value(t, (self,), lambda g: (g * (1 - t * t),))
        ### END SOLUTION

    def relu(self):
        ### BEGIN SOLUTION
        a = self.data
        return Value(a.clamp(min=0), (self,), lambda g: (g * (a > 0).to(g.dtype),))
        ### END SOLUTION

    def sum(self):
        ### BEGIN SOLUTION
        a = self.data
        return Value(a.sum(), (self,), lambda g: (g.expand(a.shape),))
        ### END SOLUTION

    def backward(self):
        ### BEGIN SOLUTION
        order, seen = [], set()
        stack = [(self, False)]
        while stack:
            v, expanded = stack.pop()
            if expanded:
                order.append(v)
                continue
            if id(v) in seen:
                continue
            seen.add(id(v))
            stack.append((v, True))
            stack.extend((p, False) for p in v._parents)
        grads = {id(self): torch.ones_like(self.data)}
        for v in reversed(order):
            g = grads.pop(id(v), None)
            if g is None:
                continue
            if not v._parents:
                v.grad = g.clone() if v.grad is None else v.grad + g
                continue
            for p, gp in zip(v._parents, v._rule(g)):
                grads[id(p)] = gp if id(p) not in grads else grads[id(p)] + gp
        ### END SOLUTION


# %% [tests] id=engine_tests points=4
_a = Value(torch.randn(3, 1, dtype=torch.float64))
_b = Value(torch.randn(4, dtype=torch.float64))
_out = ((_a * _b).tanh() + _a - _b.exp()).sum()
_out.backward()
_ta, _tb = _a.data.clone().requires_grad_(True), _b.data.clone().requires_grad_(True)
_gta, _gtb = torch.autograd.grad(((_ta * _tb).tanh() + _ta - _tb.exp()).sum(), (_ta, _tb))
expect_close(_out.data, ((_ta * _tb).tanh() + _ta - _tb.exp()).sum(), "the value of the expression")
expect_close(_a.grad, _gta, "a.grad for a (3, 1), b (4,)")
expect_close(_b.grad, _gtb, "b.grad for a (3, 1), b (4,)")
_x = Value(torch.tensor([2.0], dtype=torch.float64))
(_x * _x).sum().backward()
expect_close(_x.grad, torch.tensor([4.0], dtype=torch.float64), "x.grad for (x * x).sum() at x = 2")
### BEGIN HIDDEN TESTS
run_hidden("00-02", "engine", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. What the graph keeps alive: saved tensors
#
# To compute `grad_a = grad_out * b`, the `MulBackward0` node must keep `b` until backward. Those *saved
# tensors* (mostly the activations of every layer) are why training needs far more memory than
# inference. `torch.autograd.graph.saved_tensors_hooks(pack, unpack)` lets you decide how they are kept:
# while the block is active, every tensor an operation saves is passed to `pack(t)`, the graph keeps
# whatever `pack` returns, and backward calls `unpack(packed)` to get a tensor back. Storing a float32
# activation as bfloat16 halves its bytes at the price of about three significant digits.
#
# The worked example counts what a small MLP saves.

# %%
def count_saved_bytes(fn):
    """Run fn() with hooks that add up the bytes of every tensor autograd saves."""
    total = [0]

    def pack(t):
        total[0] += t.numel() * t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    return out, total[0]


mlp = make_demo_mlp()
xb = torch.rand(64, 1, 28, 28)
_, nbytes = count_saved_bytes(lambda: mlp(xb).sum())
print(f"the graph of mlp(x) for a batch of 64 saves {nbytes / 1024:.0f} KiB")

# %% [markdown]
# ### Exercise 3 · Saved tensors in bfloat16 (3 points)
#
# Write two hooks and a context manager that installs them.
#
# * `pack_compressed(t)` stores a float32 or float64 tensor as bfloat16: what it returns holds no tensor
#   other than the bfloat16 copy (no reference to `t` or to another full-precision copy).
# * Tensors of any other dtype (integer indices, bool masks, float16) are kept as they are.
# * `unpack_compressed(packed)` returns a tensor with the original shape, dtype and device, equal to `t`
#   up to bfloat16 rounding (and exactly `t`'s values for the tensors kept as they are).
# * `compressed_saved_tensors()` returns a context manager under which autograd saves every tensor through
#   these two hooks.
# * Gradients computed through it stay within 2 % (relative, in norm) of the exact ones for float32
#   models of the demo's size.
# * When the block ends, also by an exception, no saved-tensor hooks of yours are left installed.

# %% [solution] id=compress_impl
def pack_compressed(t):
    """What the graph keeps instead of t."""
    ### BEGIN SOLUTION
    if t.dtype in (torch.float32, torch.float64):
        return (t.to(torch.bfloat16), t.dtype)
    return (t, None)
    ### END SOLUTION


def unpack_compressed(packed):
    """The tensor packed by pack_compressed, back in its own dtype."""
    ### BEGIN SOLUTION
    data, dtype = packed
    return data if dtype is None else data.to(dtype)
    ### END SOLUTION


def compressed_saved_tensors():
    """A context manager: saved tensors go through pack_compressed / unpack_compressed."""
    ### BEGIN SOLUTION
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
    ### END SOLUTION


# %% [tests] id=compress_tests points=3
_t = torch.randn(5, 3)
_back = unpack_compressed(pack_compressed(_t))
expect_equal(_back.dtype, torch.float32, "the dtype of unpack_compressed(pack_compressed(t)) for float32 t")
expect_close(_back, _t, "unpack_compressed(pack_compressed(t))", atol=1e-2, rtol=1e-2)
_idx = torch.tensor([3, 1, 2])
expect_equal(unpack_compressed(pack_compressed(_idx)), _idx, "an int64 tensor packed and unpacked")
_m = make_demo_mlp()
_xb = torch.rand(8, 1, 28, 28)
_exact = torch.autograd.grad(_m(_xb).square().sum(), _m[1].weight)[0]
with compressed_saved_tensors():
    _loss = _m(_xb).square().sum()
_approx = torch.autograd.grad(_loss, _m[1].weight)[0]
expect(((_approx - _exact).norm() / _exact.norm()).item() < 0.02, "the gradient through compressed_saved_tensors")
### BEGIN HIDDEN TESTS
run_hidden("00-02", "compress", globals())
### END HIDDEN TESTS

# %%
# Demo: bytes held by the graph of the MLP on a FashionMNIST batch, plain and compressed.
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    xb, yb = next(iter(DataLoader(load("fashionmnist", train=False), batch_size=256)))
    mlp = make_demo_mlp()
    sizes = {}
    _, sizes["plain"] = count_saved_bytes(lambda: F.cross_entropy(mlp(xb), yb))
    packed_bytes = [0]

    def counting_pack(t):
        p = pack_compressed(t)
        packed_bytes[0] += p[0].numel() * p[0].element_size() if isinstance(p, tuple) else 0
        return p

    with torch.autograd.graph.saved_tensors_hooks(counting_pack, unpack_compressed):
        loss = F.cross_entropy(mlp(xb), yb)
    sizes["bfloat16"] = packed_bytes[0]
    exact = torch.autograd.grad(F.cross_entropy(mlp(xb), yb), mlp[1].weight)[0]
    approx = torch.autograd.grad(loss, mlp[1].weight)[0]
    print(f"relative gradient error: {((approx - exact).norm() / exact.norm()).item():.2e}")
    plt.bar(list(sizes), [v / 1024 for v in sizes.values()], color=["tab:blue", "tab:orange"])
    plt.ylabel("KiB saved for backward")
    plt.title("An MLP on 256 FashionMNIST images")
    plt.show()

# %% [markdown]
# ## 4. No graph at all: `no_grad` and `inference_mode`
#
# For evaluation you want no graph. Two modes give you that:
#
# * `torch.no_grad()` stops recording: results have `requires_grad=False` and no `grad_fn`. They are
#   ordinary tensors: you can modify them in place or use them later in a computation that *does* build a
#   graph (as targets, as a teacher's outputs, as a cache).
# * `torch.inference_mode()` also skips the bookkeeping that makes such later use safe (version counters,
#   view tracking). It is a little faster, and its results are *inference tensors* (`t.is_inference()`):
#   using one in autograd afterwards, or changing it in place outside inference mode, raises an error.
#
# So pick `inference_mode` when the outputs end their life in the evaluation, and `no_grad` when they go on.

# %%
lin = nn.Linear(4, 2)
with torch.inference_mode():
    inf_out = lin(torch.randn(3, 4))
with torch.no_grad():
    ng_out = lin(torch.randn(3, 4))
print("inference tensor?", inf_out.is_inference(), ng_out.is_inference())
print("later use with autograd, no_grad output:", (lin(ng_out.repeat(1, 2)) * ng_out.sum()).sum().requires_grad)
try:
    (lin(inf_out.repeat(1, 2)) * inf_out).sum().backward()
except RuntimeError as err:
    print("later use with autograd, inference output:", str(err).splitlines()[0][:90])

# %% [markdown]
# ### Exercise 4 · `evaluate` (2 points)
#
# Implement `evaluate(model, x, keep_for_autograd=False)`, which returns `model(x)` computed in evaluation
# mode without recording a graph.
#
# * The output has `requires_grad=False`, and equals what `model.eval()` followed by `model(x)` gives.
# * With `keep_for_autograd=False`, run under `torch.inference_mode()`: the output is an inference tensor.
# * With `keep_for_autograd=True`, run under `torch.no_grad()`: the output is an ordinary tensor that can be
#   modified in place and used in autograd later.
# * Every submodule is left in the train or eval mode it was in before the call, even when they differ.
# * Grad mode and inference mode are as they were before the call, also when `model(x)` raises.

# %% [solution] id=evaluate_impl
def evaluate(model, x, keep_for_autograd=False):
    """model(x) in eval mode, with no graph; see the exercise for which mode."""
    ### BEGIN SOLUTION
    modes = {m: m.training for m in model.modules()}
    model.eval()
    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            return model(x)
    finally:
        for m, mode in modes.items():
            m.training = mode
    ### END SOLUTION


# %% [tests] id=evaluate_tests points=2
_net = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.5), nn.Linear(3, 2))
_xin = torch.randn(5, 4)
_o1 = evaluate(_net, _xin)
expect(_o1.is_inference(), "evaluate(net, x) returns an inference tensor")
_o2 = evaluate(_net, _xin, keep_for_autograd=True)
expect(not _o2.is_inference() and not _o2.requires_grad, "evaluate(net, x, keep_for_autograd=True): an ordinary tensor")
expect(_net.training, "the net is back in training mode after evaluate")
expect_close(_o2, _o1.clone(), "the two modes give the same values")
### BEGIN HIDDEN TESTS
run_hidden("00-02", "evaluate", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Trading compute for memory: checkpointing
#
# Compression makes saved tensors smaller; *checkpointing* does not keep them at all. Run a block under
# `torch.no_grad()` in forward (nothing inside it is saved), keep only its input, and in backward run the
# block again with grad enabled to rebuild its graph, then differentiate that. Memory for the block's
# activations is paid only during its own backward, at the price of a second forward.
#
# One trap: a block with dropout draws random numbers. The recomputation must draw the *same* ones, or the
# gradient belongs to a different mask than the output. So forward records the RNG state before running the
# block, and backward runs the block again from that state inside `torch.random.fork_rng()`, which puts the
# global RNG back afterwards. PyTorch ships this as `torch.utils.checkpoint.checkpoint`.

# %%
def count_saved(fn):
    """How many tensors autograd saves while fn() runs."""
    n = [0]

    def pack(t):
        n[0] += 1
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    return out, n[0]


from torch.utils.checkpoint import checkpoint as torch_checkpoint

block = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32))
xin = torch.randn(8, 32)
print("plain:          ", count_saved(lambda: block(xin))[1], "tensors saved")
print("torch checkpoint:", count_saved(lambda: torch_checkpoint(block, xin, use_reentrant=False))[1], "tensors saved")

# %% [markdown]
# ### Exercise 5 · `checkpoint` (3 points)
#
# Implement `Checkpoint`, a `torch.autograd.Function`, and `checkpoint(block, x)`, which returns
# `Checkpoint.apply(block, x, *block.parameters())`.
#
# * `block` is an `nn.Module` (without BatchNorm) called with one tensor; `checkpoint(block, x)` returns a tensor
#   equal to `block(x)` computed with the global RNG as it was at the call.
# * Forward runs `block` without recording a graph and saves only `x` for backward.
# * Backward runs `block` again from the RNG state forward started from, so dropout draws the same mask, and returns
#   the gradients of `x` and of every parameter: they match those of a plain `block(x)` with the same RNG state.
# * A parameter the block never uses gets `None` (or zeros); a batch of one sample works like any other.
# * `x` may or may not require grad (a batch of data does not; integer token ids for an `nn.Embedding` cannot);
#   the parameters' gradients are right either way,
#   and `x` itself is left as it was (its values, and whether it requires grad).
# * The global RNG state after forward is the one a plain `block(x)` leaves, and backward does not change it.
# * Backward may run more than once over the same graph (`retain_graph=True`, as `gradcheck` does): each run gives
#   the same gradients.

# %% [solution] id=checkpoint_impl
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ### BEGIN SOLUTION
        ctx.block = block
        ctx.rng = torch.get_rng_state()
        ctx.save_for_backward(x)
        with torch.no_grad():
            return block(x)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        params = list(ctx.block.parameters())
        with torch.random.fork_rng(devices=[]), torch.enable_grad():
            torch.set_rng_state(ctx.rng)
            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
            out = ctx.block(xd)
            wrt = ([xd] if xd.requires_grad else []) + [p for p in params if p.requires_grad]
            grads = iter(torch.autograd.grad(out, wrt, grad_out, allow_unused=True))
        gx = next(grads) if xd.requires_grad else None
        return (None, gx, *[next(grads) if p.requires_grad else None for p in params])
        ### END SOLUTION


def checkpoint(block, x):
    """block(x), recomputed in backward instead of saved."""
    return Checkpoint.apply(block, x, *block.parameters())


# %% [tests] id=checkpoint_tests points=3
_blk = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Dropout(0.3), nn.Linear(5, 2)).double()
_xc = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
torch.manual_seed(1)
_ref = _blk(_xc)
_gref = torch.autograd.grad(_ref.sum(), [_xc, *_blk.parameters()])
torch.manual_seed(1)
_out, _n = count_saved(lambda: checkpoint(_blk, _xc))
expect_close(_out, _ref, "checkpoint(block, x) against block(x) from the same seed")
expect_equal(_n, 1, "the number of tensors saved by checkpoint(block, x)")
for _g, _w in zip(torch.autograd.grad(_out.sum(), [_xc, *_blk.parameters()]), _gref):
    expect_close(_g, _w, "a gradient through checkpoint(block, x)")
### BEGIN HIDDEN TESTS
run_hidden("00-02", "checkpoint", globals())
### END HIDDEN TESTS

# %%
# Demo: tensors and bytes saved for backward by a deeper MLP on FashionMNIST, plain and checkpointed per block.
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    xb, _ = next(iter(DataLoader(load("fashionmnist", train=False), batch_size=256)))
    xb = xb.flatten(1)
    torch.manual_seed(0)
    blocks = nn.ModuleList(nn.Sequential(nn.Linear(784 if i == 0 else 256, 256), nn.ReLU(), nn.Dropout(0.1))
                           for i in range(4))

    def run(use_ckpt):
        h = xb
        for b in blocks:
            h = checkpoint(b, h) if use_ckpt else b(h)
        return h.sum()

    sizes = {name: count_saved_bytes(lambda: run(flag))[1] / 1024 for name, flag in (("plain", False),
                                                                                    ("checkpointed", True))}
    plt.bar(list(sizes), list(sizes.values()), color=["tab:blue", "tab:green"])
    plt.ylabel("KiB saved for backward")
    plt.title("Four 256-wide blocks on 256 FashionMNIST images")
    plt.show()

# %% [markdown]
# ## What to remember
#
# * The graph is a DAG of nodes linked by `next_functions`; leaves end in `AccumulateGrad`, and backward runs
#   the nodes in a topological order so that every contribution to a gradient has arrived before it is used.
# * Reverse mode is one vector-Jacobian rule per operation plus that walk; broadcasting is undone by summing.
# * What the graph costs in memory is its saved tensors, and `saved_tensors_hooks` decides how they are kept.
# * Evaluate under `inference_mode` unless the outputs will meet autograd again; then use `no_grad`.
# * Checkpointing keeps a block's input instead of its activations and replays the block, RNG state included.
