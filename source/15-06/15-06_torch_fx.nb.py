# %% [markdown]
# # 15-06 · torch.fx and graph transformations
#
# A PyTorch model is, by default, *just Python*: `forward` runs line by line, and nothing in
# the framework ever holds the whole computation in one place. That is what makes eager
# PyTorch pleasant to debug, and also what makes whole-program optimisations (fusing layers,
# inserting quantisation, swapping operators, handing the model to a compiler) awkward.
#
# `torch.fx` closes the gap. It turns a module into a small, explicit **graph IR** that you
# can read, analyse and rewrite with ordinary Python, and then turns the rewritten graph back
# into runnable Python code. The same IR is what `torch.compile` hands to its backends.
#
# In this notebook you will:
#
# 1. trace a FashionMNIST classifier and learn the six node kinds of the IR (**exercise 1**: count them);
# 2. derive the Conv+BatchNorm folding formula (**exercise 2**) and write the graph pass that applies it
#    wherever it is valid (**exercise 3**), then measure the speed-up;
# 3. write a quantisation-style pass that inserts range observers after chosen layers (**exercise 4**);
# 4. write a rewrite pass that swaps every ReLU for another activation (**exercise 5**);
# 5. look inside `torch.compile` with a backend that records the graphs Dynamo captured (**exercise 6**).
#
# Everything runs on a CPU. Cells that train or benchmark only run when you run the notebook
# yourself (`run_demos()`); grading skips them.
#
# **Validate runs only the visible checks.** "Success!" means your code passes the examples in the
# test cells, not that it earns full marks: grading runs many more hidden checks on the same functions. Keep the
# `def` and `class` lines of the skeletons as they are (the parameters' names, their order and their defaults):
# a hidden check compares them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and the device. Everything in this notebook runs on CPU or GPU.
import torch
from course.student.checks import expect, expect_close, expect_equal
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden
DEVICE = pick_device()

# %%
import copy
import operator
import time
from collections import Counter

import torch.fx as fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp
from tqdm.auto import tqdm

from course.student import data

_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 1. Symbolic tracing: from `forward` to a graph
#
# `torch.fx.symbolic_trace(model)` calls `model.forward` once, but instead of real tensors it
# passes **Proxy** objects. A Proxy does no arithmetic. Every time something is done to it
# (a submodule is called on it, a `torch` function receives it, a method is called on it), it
# appends a **Node** to a `Graph` and returns a new Proxy that stands for the result. When
# `forward` returns, the graph holds a straight-line record of everything that happened.
#
# Every node has an `op` (its kind), a `target` (what is called) and `args`/`kwargs` (other
# nodes or constants). There are exactly six kinds:
#
# | `op` | meaning | `target` |
# |---|---|---|
# | `placeholder` | an input of `forward` | the argument's name |
# | `get_attr` | read a parameter or buffer straight off the module | its qualified name, e.g. `"scale"` |
# | `call_module` | call a submodule | its qualified name, e.g. `"stem.0"` |
# | `call_function` | call a free function (`torch.add`, `F.relu`, `operator.add`, ...) | the function object |
# | `call_method` | call a method on a value (`x.view(...)`, `x.relu()`) | the method name, a string |
# | `output` | what `forward` returns | `"output"` |
#
# Two consequences are worth remembering. Submodules are **not** inlined: `call_module` keeps a
# `Conv2d` as one opaque node, which is exactly what lets us find and replace layers. And Python
# control flow is **executed during tracing**, not recorded: a `for` loop over layers is unrolled,
# and an `if` on a tensor *value* cannot be traced at all (a Proxy has no value).
#
# Here is the model we will work with: a small FashionMNIST classifier with the usual
# Conv → BatchNorm → ReLU blocks, a depthwise dilated convolution, and one residual connection
# whose convolution output is used twice.

# %%
class FashionNet(nn.Module):
    """Conv/BN classifier for 1x28x28 images (FashionMNIST)."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        # depthwise (groups=16), dilated convolution without bias
        self.dw = nn.Conv2d(16, 16, 3, padding=2, dilation=2, groups=16, bias=False)
        self.dw_bn = nn.BatchNorm2d(16)
        # 1x1 convolution with a bias
        self.pw = nn.Conv2d(16, 32, 1)
        self.pw_bn = nn.BatchNorm2d(32)
        # residual block: the conv output goes to the BN *and* to the skip connection
        self.res_conv = nn.Conv2d(32, 32, 3, padding=1)
        self.res_bn = nn.BatchNorm2d(32)
        self.pool = nn.MaxPool2d(2)
        self.head = nn.Linear(32 * 7 * 7, num_classes)

    def forward(self, x):
        x = self.pool(self.stem(x))                 # 16 x 14 x 14
        x = F.relu(self.dw_bn(self.dw(x)))
        x = torch.relu(self.pw_bn(self.pw(x)))     # 32 x 14 x 14
        h = self.res_conv(x)
        x = F.relu(self.res_bn(h) + h)
        x = self.pool(x)                            # 32 x 7 x 7
        return self.head(x.flatten(1))


model = FashionNet().eval()
traced = fx.symbolic_trace(model)
print(type(traced).__name__)
print(traced.graph)

# %% [markdown]
# `symbolic_trace` returns a `GraphModule`: an `nn.Module` that owns the graph, references to
# the submodules the graph calls, and a `forward` that was **generated as Python source** from
# the graph. That generated code is what actually runs; you can read it:

# %%
print(traced.code)

# %%
def show_nodes(gm: fx.GraphModule) -> None:
    """A small table of a graph's nodes (like Graph.print_tabular, without extra packages)."""
    print(f"{'op':<14}{'name':<12}{'target':<34}args")
    for n in gm.graph.nodes:
        target = n.target if isinstance(n.target, str) else getattr(n.target, "__name__", str(n.target))
        print(f"{n.op:<14}{n.name:<12}{str(target):<34}{n.args}")


show_nodes(traced)

# %% [markdown]
# Notice that `self.pool` appears twice as `call_module` (the module is reused), that `F.relu`
# and `torch.relu` are `call_function` nodes while `x.flatten(1)` is a `call_method` node, and
# that `+` became `operator.add`. Each node also knows its **users** (`node.users`): the nodes
# that consume its value. `h` has two users, which will matter for fusion.
#
# ### Shape propagation
#
# A graph alone has no shapes: tracing never ran real arithmetic. `ShapeProp` is an
# *interpreter* (`torch.fx.Interpreter`): it walks the nodes in order, runs each one on real
# example tensors, and stores the result's shape and dtype in `node.meta["tensor_meta"]`.
# Interpreters like this are the standard way to run analyses over a graph.

# %%
if run_demos():  # shapes and the plot (about 0.17 s): shown to you, skipped when grading
    example = torch.randn(2, 1, 28, 28)
    ShapeProp(traced).propagate(example)
    sizes = []
    for n in traced.graph.nodes:
        meta = n.meta.get("tensor_meta")
        if meta is not None:
            print(f"{n.name:<12} {n.op:<14} {tuple(meta.shape)}")
            sizes.append((n.name, meta.shape.numel() // meta.shape[0]))

    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 3))
    ax.bar([s[0] for s in sizes], [s[1] for s in sizes], color="tab:blue")
    ax.set_ylabel("values per example")
    ax.set_title("activation size after each node of FashionNet (from ShapeProp)")
    ax.tick_params(axis="x", rotation=60)
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### What tracing cannot see
#
# Tracing records operations on Proxies. Anything that needs a tensor's *value* while tracing
# fails, because a Proxy has none; and Python side effects happen once, at trace time.

# %%
class DataDependent(nn.Module):
    def forward(self, x):
        if x.sum() > 0:          # needs the value of x.sum(): not traceable
            return x * 2
        return x


try:
    fx.symbolic_trace(DataDependent())
except Exception as exc:  # torch.fx.proxy.TraceError
    print(f"{type(exc).__name__}: {str(exc)[:160]}")

# %% [markdown]
# (`torch.compile` handles this case differently: Dynamo traces Python *bytecode*, and when it
# meets something it cannot put in a graph it inserts a **graph break**, runs that bit in plain
# Python and starts a new graph afterwards. Section 6 shows this.)
#
# ### Exercise 1 — count the node kinds (2 points)
#
# Write `count_ops(model)`: symbolically trace `model` and return a `dict` mapping each opcode
# that occurs in the graph (`"placeholder"`, `"get_attr"`, `"call_module"`, `"call_function"`,
# `"call_method"`, `"output"`) to the number of nodes with that opcode. Opcodes that do not
# occur may be left out or given the value 0. Count **graph nodes**, not modules: a module called
# twice is two `call_module` nodes, and a module that `forward` never calls is none. Every node
# the trace records counts, also an operation whose result `forward` never uses. Each call traces
# `model` as it is at that call (its mode, its submodules): keep nothing from an earlier call. A
# `GraphModule` is traced like any other model (do not just read the graph it holds).

# %% [solution] id=count_ops_impl
def count_ops(model: nn.Module) -> dict:
    """Trace ``model`` with torch.fx and count its graph nodes by opcode, e.g. {"call_module": 9, ...}."""
    ### BEGIN SOLUTION
    gm = fx.symbolic_trace(model)
    return dict(Counter(node.op for node in gm.graph.nodes))
    ### END SOLUTION


# %% [tests] id=count_ops_tests points=2
_counts = count_ops(FashionNet())
expect(isinstance(_counts, dict), f"count_ops returns a dict, got {type(_counts).__name__}")
expect_equal((_counts.get("placeholder"), _counts.get("output")), (1, 1),
             "count_ops(FashionNet())['placeholder'] and ['output']")
expect(_counts.get("call_module", 0) >= 9, f"at least 9 call_module nodes in FashionNet, counted {_counts.get('call_module')}")
### BEGIN HIDDEN TESTS
run_hidden("15-06", "count_ops", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Folding BatchNorm into the convolution before it
#
# In eval mode a `BatchNorm2d` does not use batch statistics: it applies a fixed per-channel
# affine map with its running mean $\mu$, running variance $\sigma^2$, weight $\gamma$, bias
# $\beta$ and `eps` $\epsilon$:
#
# $$\mathrm{BN}(y)_c = \gamma_c\,\frac{y_c - \mu_c}{\sqrt{\sigma_c^2 + \epsilon}} + \beta_c
#   = s_c\,y_c + (\beta_c - s_c\,\mu_c), \qquad s_c = \frac{\gamma_c}{\sqrt{\sigma_c^2+\epsilon}}.$$
#
# A convolution is linear in its weight: output channel $c$ is $y_c = W_c * x + b_c$, where
# $W_c$ is the slice `weight[c]` (shape `in_channels/groups × kH × kW`). So
#
# $$\mathrm{BN}(\mathrm{conv}(x))_c = (s_c W_c) * x + \big(s_c\,(b_c - \mu_c) + \beta_c\big),$$
#
# which is again **one convolution** with weight $W'_c = s_c W_c$ and bias
# $b'_c = s_c (b_c - \mu_c) + \beta_c$ (take $b_c = 0$ when the conv has no bias). Only the
# output-channel dimension is scaled, so groups, dilation, stride and padding are untouched.
# At inference this saves a full pass over the activation tensor (BN reads and writes every
# value) for free.
#
# Two conditions make the fold valid: the BN must be in **eval mode** (in training mode it
# normalises with the statistics of the current batch, which no fixed weight can reproduce,
# and it updates its running statistics), and the BN must be the only consumer of the conv
# output (see section 3).
#
# ### Exercise 2 — fold one Conv2d/BatchNorm2d pair (2 points)
#
# Write `fold_conv_bn(conv, bn)` that returns a **new** `nn.Conv2d` computing
# `bn(conv(x))` for an eval-mode `bn`. It must have the same configuration as `conv`
# (channels, kernel, stride, padding, dilation, groups, padding_mode), always a bias, parameters in the
# same dtype and on the same device as `conv`'s weight (also when `bn`'s dtype differs), and it must not
# modify `conv` or `bn`. Write the arithmetic
# yourself (the point is to derive it; PyTorch's own `torch.nn.utils.fusion` is what the
# grader compares you against).

# %% [solution] id=fold_conv_bn_impl
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    ### BEGIN SOLUTION
    fused = copy.deepcopy(conv)
    w = conv.weight.detach()
    b = conv.bias.detach() if conv.bias is not None else torch.zeros(conv.out_channels, dtype=w.dtype,
                                                                       device=w.device)
    gamma = bn.weight.detach() if bn.weight is not None else torch.ones_like(bn.running_var)  # affine=False
    beta = bn.bias.detach() if bn.bias is not None else torch.zeros_like(bn.running_mean)
    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)
    # cast back: a wider bn (float64 with a float32 conv) would otherwise promote the folded parameters
    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))
    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + beta).to(w.dtype))
    return fused
    ### END SOLUTION


# %% [tests] id=fold_conv_bn_tests points=2
_conv = nn.Conv2d(3, 4, 3, padding=1, bias=False).double()
_bn = nn.BatchNorm2d(4).double()
_bn.running_mean.uniform_(-1, 1)
_bn.running_var.uniform_(0.5, 2)
_bn.eval()
_x = torch.randn(2, 3, 6, 6, dtype=torch.float64)
_folded = fold_conv_bn(_conv, _bn)
expect(isinstance(_folded, nn.Conv2d), f"fold_conv_bn returns an nn.Conv2d, got {type(_folded).__name__}")
expect(_folded.bias is not None, "the folded conv has a bias (BatchNorm's shift goes there)")
expect_close(_folded(_x), _bn(_conv(_x)), "folded(x) vs bn(conv(x)) in float64", atol=1e-8)
expect(_conv.bias is None, "the original conv is left unchanged (still without a bias)")
### BEGIN HIDDEN TESTS
run_hidden("15-06", "fold_conv_bn", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. A graph pass: fuse every valid Conv+BN pair
#
# Folding one pair is arithmetic. Finding the pairs is a graph problem, and this is where FX
# earns its keep. The recipe for a pass:
#
# 1. `gm = fx.symbolic_trace(model)`; look submodules up with `gm.get_submodule(node.target)`
#    (or `dict(gm.named_modules())`).
# 2. Walk `gm.graph.nodes`. A pattern here is a `call_module` node on a `BatchNorm2d` whose
#    single argument is a `call_module` node on a `Conv2d`.
# 3. Check validity: **eval mode**, and the conv node has **exactly one user** (`len(conv_node.users) == 1`).
#    In `FashionNet` the residual `h = self.res_conv(x)` feeds both `res_bn` and the skip
#    addition: folding the BN into `res_conv` would silently change the skip path too, so
#    that pair must stay as it is. For the same reason a conv *module* that `forward` calls
#    more than once (two `call_module` nodes with the same target) must keep its weights:
#    the folded conv replaces the module, so it would change its other calls too.
# 4. Rewrite: put the folded conv in place of the old one **under the same qualified name**
#    (for a dotted name like `"stem.0"`, set the attribute `"0"` on the parent `gm.get_submodule("stem")`),
#    then `bn_node.replace_all_uses_with(conv_node)` and `gm.graph.erase_node(bn_node)`.
# 5. `gm.graph.lint()` (checks the graph is well formed) and **`gm.recompile()`**: the generated
#    Python `forward` is only regenerated when you ask; forgetting this runs the old code.
#
# A detail that bites: `symbolic_trace` does not copy leaf modules; the `GraphModule` refers to
# the very same `Conv2d` objects as the original model. Replace modules (do not edit their
# weights in place), or trace a `copy.deepcopy(model)`, so that the caller's model is unchanged.
#
# ### Exercise 3 — `fuse_conv_bn` (4 points)
#
# Write `fuse_conv_bn(model)` returning a new `fx.GraphModule` in which every
# `Conv2d → BatchNorm2d` pair where fusion is valid has been folded (use your
# `fold_conv_bn`), the fused conv keeping the original conv's qualified name. Leave a pair alone
# when the conv output has other users, or when `forward` calls the same conv module more than
# once; leave a BatchNorm alone when its input is not a conv.
# If `model`, or any `BatchNorm2d` inside it, is in training mode, raise a `RuntimeError` that
# says fusion needs eval mode. Do not modify `model`. The fused model keeps the model's device and
# dtype (a folded conv stays where the conv was). The models given hold plain `torch.nn` layers: no
# quantisation-aware-training modules (`torch.ao.nn.qat`, whose convs fake-quantise their weight and
# are no plain `Conv2d` to fold), which this exercise leaves out.

# %% [solution] id=fuse_conv_bn_impl
def fuse_conv_bn(model: nn.Module) -> fx.GraphModule:
    """Fold every valid Conv2d -> BatchNorm2d pair of an eval-mode ``model``; returns a new GraphModule."""
    ### BEGIN SOLUTION
    if model.training or any(m.training for m in model.modules() if isinstance(m, nn.BatchNorm2d)):
        raise RuntimeError("fuse_conv_bn: Conv+BN fusion is only valid in eval mode; call model.eval() first")
    gm = fx.symbolic_trace(copy.deepcopy(model))
    module_calls = Counter(n.target for n in gm.graph.nodes if n.op == "call_module")
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):
            continue
        src = node.args[0]
        if not (isinstance(src, fx.Node) and src.op == "call_module"
                and isinstance(gm.get_submodule(src.target), nn.Conv2d)):
            continue
        if len(src.users) != 1:
            continue  # the conv output is needed unnormalised elsewhere
        if module_calls[src.target] != 1:
            continue  # the conv module is called again: its other calls need the unfolded weights
        fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))
        parent_name, _, leaf = src.target.rpartition(".")
        setattr(gm.get_submodule(parent_name) if parent_name else gm, leaf, fused)
        node.replace_all_uses_with(src)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    gm.delete_all_unused_submodules()
    return gm
    ### END SOLUTION


# %% [tests] id=fuse_conv_bn_tests points=4
_m = FashionNet().eval()
_x = torch.randn(3, 1, 28, 28)
_fused = fuse_conv_bn(_m)
expect(isinstance(_fused, fx.GraphModule), f"fuse_conv_bn returns an fx.GraphModule, got {type(_fused).__name__}")
expect_close(_fused(_x), _m(_x), "fused(x) vs the original model in eval mode", atol=1e-4)
_bn_calls = [n for n in _fused.graph.nodes
             if n.op == "call_module" and isinstance(_fused.get_submodule(n.target), nn.BatchNorm2d)]
expect_equal(len(_bn_calls), 1, "the number of BatchNorm calls left in the fused graph "
             "(only res_bn: its conv output has two users)")
### BEGIN HIDDEN TESTS
run_hidden("15-06", "fuse_conv_bn", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Does it pay off? Train briefly, fuse, compare, time
#
# With random BatchNorm statistics a comparison proves little, so we first train `FashionNet`
# for a few hundred steps (this only runs when you run the notebook yourself). Then we check
# that the fused model gives the same predictions and time both on a batch of test images.
# Expect a ratio a little below 1 on CPU: the fused model skips a pass over every BN activation.

# %%
def accuracy(net, loader, max_batches=20):
    net.eval()
    correct = total = 0
    with torch.no_grad():
        for i, (xb, yb) in enumerate(loader):
            if i == max_batches:
                break
            correct += (net(xb.to(DEVICE)).argmax(1).cpu() == yb).sum().item()
            total += len(yb)
    return correct / total


if run_demos():
    import matplotlib.pyplot as plt
    train_set = data.load("fashionmnist", train=True)
    test_set = data.load("fashionmnist", train=False)
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=128, shuffle=True)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=256)
    net = FashionNet().to(DEVICE)
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    net.train()
    steps, losses = 200, []
    batches = iter(train_loader)
    for step in tqdm(range(steps), desc="training FashionNet"):
        try:
            xb, yb = next(batches)
        except StopIteration:
            batches = iter(train_loader)
            xb, yb = next(batches)
        loss = F.cross_entropy(net(xb.to(DEVICE)), yb.to(DEVICE))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    net.eval()
    plt.figure(figsize=(6, 3))
    plt.plot(losses)
    plt.xlabel("step")
    plt.ylabel("training loss")
    plt.title("FashionNet, a short run")
    plt.show()
    xb, _ = next(iter(test_loader))
    xb = xb.to(DEVICE)
    try:
        fused_net = fuse_conv_bn(net)
    except NotImplementedError:
        fused_net = None
        print("fuse_conv_bn is not written yet: the fused model is compared, timed and quantised once it is.")
    if fused_net is not None:
        with torch.no_grad():
            diff = (fused_net(xb) - net(xb)).abs().max().item()
        print(f"accuracy unfused {accuracy(net, test_loader):.3f}, fused {accuracy(fused_net, test_loader):.3f}; "
              f"max |logit difference| {diff:.2e}")

# %%
def time_inference(net, x, repeats=30):
    """Median wall time of one forward pass (after warm-up)."""
    times = []
    with torch.no_grad():
        for _ in range(5):
            net(x)
        for _ in range(repeats):
            if x.is_cuda:
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            net(x)
            if x.is_cuda:
                torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


if run_demos() and fused_net is not None:  # None: fuse_conv_bn is not written yet
    t_unfused = time_inference(net, xb)
    t_fused = time_inference(fused_net, xb)
    print(f"batch of {len(xb)}: unfused {t_unfused * 1e3:.2f} ms, fused {t_fused * 1e3:.2f} ms, "
          f"fused/unfused time ratio {t_fused / t_unfused:.2f} (speed-up x{t_unfused / t_fused:.2f})")

# %% [markdown]
# ## 4. A quantisation-style pass: observers
#
# Post-training quantisation needs to know the range of values each layer produces, so that an
# 8-bit grid can cover it. The FX way to get that (and the way `torch.ao.quantization`'s FX
# mode works) is to **insert observer modules into the graph**: identity modules that record the
# running minimum and maximum of whatever flows through them. Run some calibration batches, read
# the observers, then swap each observer for a fake-quantise step that rounds values onto the grid.
#
# The new piece of graph surgery is inserting a node *after* an existing one:
#
# ```python
# with gm.graph.inserting_after(node):
#     obs = gm.graph.call_module("obs_name", args=(node,))
# node.replace_all_uses_with(obs, delete_user_cb=lambda user: user is not obs)
# ```
#
# The `delete_user_cb` matters: `obs` itself uses `node`, and without the callback
# `replace_all_uses_with` would rewire `obs` to consume *itself*, a cycle that `lint()` rejects.
# The observer module must be registered first (`gm.add_submodule("obs_name", module)`), and,
# as always, `gm.recompile()` at the end.
#
# Here is the observer to use:

# %%
class RangeObserver(nn.Module):
    """Identity that records the min and max of every tensor it sees."""

    def __init__(self):
        super().__init__()
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))

    def forward(self, x):
        v = x.detach()
        self.min_val = torch.minimum(self.min_val.to(v.dtype), v.min())
        self.max_val = torch.maximum(self.max_val.to(v.dtype), v.max())
        return x


# %% [markdown]
# ### Exercise 4 — `insert_observers` (3 points)
#
# Write `insert_observers(model, op_types)`: trace `model` and, right after **every**
# `call_module` node whose module is an instance of one of `op_types` (a tuple of classes such
# as `(nn.Conv2d, nn.Linear)`), insert a call to a **fresh** `RangeObserver` so that all former
# users of that node now read the observer's output. Only module calls are observed (a
# functional `F.relu` is not an `nn.ReLU` module). Return the `GraphModule`; it must lint,
# be recompiled, compute exactly what `model` computes, and not change `model`. Any model will do,
# also one without parameters (a stack of `nn.ReLU` and `nn.MaxPool2d` modules), and one that already
# uses the names you give your observers for submodules of its own: `add_submodule` silently replaces
# a submodule of the same name, so pick names the traced module does not have yet.

# %% [solution] id=insert_observers_impl
def insert_observers(model: nn.Module, op_types: tuple) -> fx.GraphModule:
    """Trace ``model`` and put a fresh RangeObserver after every call of a module of a type in ``op_types``."""
    ### BEGIN SOLUTION
    gm = fx.symbolic_trace(model)
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), op_types):
            continue
        name = "observer_" + node.name
        while hasattr(gm, name):  # the model may use that name already: add_submodule would replace its module
            name += "_"
        gm.add_submodule(name, RangeObserver())
        with gm.graph.inserting_after(node):
            obs = gm.graph.call_module(name, args=(node,))
        node.replace_all_uses_with(obs, delete_user_cb=lambda user: user is not obs)
    gm.graph.lint()
    gm.recompile()
    return gm
    ### END SOLUTION


# %% [tests] id=insert_observers_tests points=3
_m = FashionNet().eval()
_obs_gm = insert_observers(_m, (nn.Conv2d,))
_obs = [n for n in _obs_gm.graph.nodes
        if n.op == "call_module" and isinstance(_obs_gm.get_submodule(n.target), RangeObserver)]
expect_equal(len(_obs), 4, "the number of RangeObserver calls (one after each of FashionNet's 4 convs)")
_x = torch.randn(2, 1, 28, 28)
expect_close(_obs_gm(_x), _m(_x), "the observed model's output vs the original's (observers change nothing)")
expect(all(torch.isfinite(_obs_gm.get_submodule(n.target).max_val) for n in _obs),
       "every observer recorded a finite max_val after one forward")
### BEGIN HIDDEN TESTS
run_hidden("15-06", "insert_observers", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### From observers to fake quantisation
#
# With ranges in hand, simulated ("fake") quantisation is a second, tiny pass: replace each
# observer by a module that snaps values onto a uniform grid of $2^{\text{bits}}$ levels spanning
# the observed range, then maps them back to floats. The model still runs in floating point, but
# it now suffers the rounding error an integer kernel would, which tells you how much accuracy
# int8 (or int4) inference would cost. Calibration uses a handful of training batches.

# %%
class FakeQuant(nn.Module):
    """Round onto an affine grid of 2**bits levels covering [lo, hi] (like torch.fake_quantize_per_tensor_affine)."""

    def __init__(self, lo: float, hi: float, bits: int):
        super().__init__()
        lo, hi = min(lo, 0.0), max(hi, 0.0)  # keep 0 exactly representable
        self.qmax = 2 ** bits - 1
        self.scale = max(hi - lo, 1e-8) / self.qmax
        self.zero_point = int(round(-lo / self.scale))

    def forward(self, x):
        return torch.fake_quantize_per_tensor_affine(x, self.scale, self.zero_point, 0, self.qmax)


def observers_to_fake_quant(gm: fx.GraphModule, bits: int) -> fx.GraphModule:
    gm = copy.deepcopy(gm)
    for node in gm.graph.nodes:
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), RangeObserver):
            obs = gm.get_submodule(node.target)
            gm.add_submodule(node.target, FakeQuant(obs.min_val.item(), obs.max_val.item(), bits))
    gm.recompile()
    return gm


if run_demos() and fused_net is not None:  # None: fuse_conv_bn is not written yet
    calib = insert_observers(fused_net.cpu(), (nn.Conv2d, nn.Linear))
    with torch.no_grad():
        for i, (xb_c, _) in enumerate(tqdm(train_loader, total=10, desc="calibrating observers")):
            if i == 10:
                break
            calib(xb_c)
    names, lows, highs = [], [], []
    for n in calib.graph.nodes:
        if n.op == "call_module" and isinstance(calib.get_submodule(n.target), RangeObserver):
            o = calib.get_submodule(n.target)
            names.append(n.args[0].target)
            lows.append(o.min_val.item())
            highs.append(o.max_val.item())
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar(names, [h - l for l, h in zip(lows, highs)], bottom=lows, color="tab:orange")
    ax.set_ylabel("observed range")
    ax.set_title("output ranges seen by the observers (calibration)")
    plt.tight_layout()
    plt.show()
    for bits in (8, 4, 2):
        q = observers_to_fake_quant(calib, bits)
        print(f"{bits}-bit fake-quantised activations: accuracy {accuracy(q, test_loader):.3f} "
              f"(float: {accuracy(fused_net.cpu(), test_loader):.3f})")
    fused_net.to(DEVICE)

# %% [markdown]
# ## 5. A rewrite pass: swapping activations
#
# Rewriting is the same surgery without keeping the old node: insert the replacement, redirect
# the users, erase the original. The work is in *matching*. A ReLU can reach the graph four ways:
#
# - `nn.ReLU()` module → `call_module` (check the module's type, not its name);
# - `F.relu(x)` (also `F.relu(x, inplace=True)`) → `call_function` with target `torch.nn.functional.relu`;
# - `torch.relu(x)` → `call_function` with target `torch.relu` (in place: `torch.relu_`);
# - `x.relu()` → `call_method` with target `"relu"` (a string; in place: `"relu_"`).
#
# And some things that *look* similar are different functions that must be left alone:
# `F.relu6`, `nn.ReLU6`, `nn.LeakyReLU`. Matching by substring (`"relu" in str(target)`) gets
# these wrong.
#
# ### Exercise 5 — `swap_relu` (2 points)
#
# Write `swap_relu(model, new_fn)`: trace `model` and replace every ReLU (all four forms above,
# including in-place ones) by a `call_function` node calling `new_fn` on the ReLU's input
# tensor alone (no other arguments: `new_fn` might not accept `inplace=`). Return a
# `GraphModule` that lints, is recompiled and runs; leave `model` unchanged.

# %% [solution] id=swap_relu_impl
def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    """Trace ``model`` and replace every ReLU (module, function or method form) by a call of ``new_fn``."""
    ### BEGIN SOLUTION
    gm = fx.symbolic_trace(model)
    relu_functions = (F.relu, torch.relu, torch.relu_, F.relu_)
    for node in list(gm.graph.nodes):
        is_relu = ((node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.ReLU))
                   or (node.op == "call_function" and node.target in relu_functions)
                   or (node.op == "call_method" and node.target in ("relu", "relu_")))
        if not is_relu:
            continue
        inp = node.args[0] if node.args else node.kwargs["input"]  # torch.relu(input=x) keeps it in kwargs
        with gm.graph.inserting_after(node):
            new = gm.graph.call_function(new_fn, args=(inp,))
        node.replace_all_uses_with(new)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm
    ### END SOLUTION


# %% [tests] id=swap_relu_tests points=2
_m = FashionNet().eval()
_g = swap_relu(_m, F.gelu)
_x = torch.randn(2, 1, 28, 28)
expect_equal(tuple(_g(_x).shape), (2, 10), "the output shape after swap_relu")
expect(not any(n.op == "call_method" and n.target == "relu" for n in _g.graph.nodes), "no .relu() calls are left")
expect_equal(sum(1 for n in _g.graph.nodes if n.target is F.gelu), 4, "the number of F.gelu calls (FashionNet has 4 ReLUs)")
### BEGIN HIDDEN TESTS
run_hidden("15-06", "swap_relu", globals())
### END HIDDEN TESTS

# %%
# The generated code of FashionNet with GELU instead of ReLU, and how much the logits move (same weights).
if run_demos():
    _relu_net = FashionNet().eval()
    _gelu_net = swap_relu(_relu_net, F.gelu)
    print(_gelu_net.code)
    _x = torch.randn(4, 1, 28, 28)
    with torch.no_grad():
        print("mean |logit change| after the swap:", (_gelu_net(_x) - _relu_net(_x)).abs().mean().item())

# %% [markdown]
# ## 6. Where this leads: `torch.compile`
#
# `torch.compile(fn, backend=...)` has two halves. **Dynamo** (the front end) hooks CPython's
# frame evaluation, reads the *bytecode* of `fn`, and records the tensor operations it executes
# into an FX graph, inserting guards (checks on shapes, dtypes, ...) that decide when the
# recorded graph can be reused. Where it meets something it cannot record (data-dependent
# Python, a print, an unsupported library call) it **breaks the graph**: it compiles the part so
# far, runs the awkward bit in ordinary Python and starts a new graph after it.
#
# The **backend** is simply a callable `backend(gm, example_inputs)` that receives each captured
# `fx.GraphModule` plus example inputs and returns a callable to run instead. Inductor (the
# default) lowers the graph to generated Triton/C++ kernels; a backend that returns `gm.forward`
# unchanged just runs the captured graph eagerly, which makes it a perfect window into what
# Dynamo saw. Unlike `symbolic_trace`, Dynamo's graphs contain only functions and methods
# (modules are inlined, their parameters become inputs).
#
# ### Exercise 6 — a recording backend (2 points)
#
# Write `make_recording_backend()` returning a pair `(backend, graphs)`: `graphs` is a new empty
# list, and `backend(gm, example_inputs)` prints the graph it received (any readable form:
# `print(gm.graph)`, `gm.print_readable()`, `print(gm.code)`), appends `gm` to `graphs` and returns
# `gm.forward` so the compiled function still computes the right values. Every graph Dynamo
# captures (one per graph break piece, and again at each recompilation, for a new dtype or a new
# shape) must end up in `graphs`, in order. After a shape change `example_inputs` may hold sizes
# (`torch.SymInt`) next to the tensors.

# %% [solution] id=recording_backend_impl
def make_recording_backend():
    """Return (backend, graphs): a torch.compile backend that prints and records each FX graph it receives."""
    ### BEGIN SOLUTION
    graphs = []

    def backend(gm: fx.GraphModule, example_inputs):
        print(f"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs) ---")
        print(gm.graph)
        graphs.append(gm)
        return gm.forward

    return backend, graphs
    ### END SOLUTION


# %% [tests] id=recording_backend_tests points=2
_backend, _graphs = make_recording_backend()
expect_equal(_graphs, [], "the recorded graphs before anything is compiled")
torch._dynamo.reset()
_f = torch.compile(lambda t: torch.cos(t) + 1, backend=_backend)
_t = torch.randn(4)
expect_close(_f(_t), torch.cos(_t) + 1, "the compiled function's result")
expect_equal(len(_graphs), 1, "the number of graphs recorded for one compiled call")
torch._dynamo.reset()
### BEGIN HIDDEN TESTS
run_hidden("15-06", "recording_backend", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### What Dynamo captured from FashionNet, and a graph break
#
# Compiling the model shows the graph a real backend (Inductor) would receive: every module has
# been inlined into `torch` functions and the parameters arrive as inputs. (Dynamo's graph is
# still in eval-mode `batch_norm` form: fusing it is one of the optimisations Inductor performs.)
# Then a function with an explicit graph break produces two graphs.

# %%
def with_a_break(x):
    y = torch.sin(x) * 2
    print("plain Python runs between the two graphs")   # Dynamo cannot put print in a graph
    return y.tanh() + x


if run_demos():  # compiling takes a few seconds, so graders skip it
    backend, seen = make_recording_backend()
    torch._dynamo.reset()
    compiled = torch.compile(FashionNet().eval(), backend=backend)
    with torch.no_grad():
        compiled(torch.randn(2, 1, 28, 28))
    ops = Counter(n.target.__name__ if callable(n.target) else str(n.target)
                  for g in seen for n in g.graph.nodes if n.op in ("call_function", "call_method"))
    print(f"{len(seen)} graph(s); operations: {dict(ops)}")

    backend2, seen2 = make_recording_backend()
    torch._dynamo.reset()
    torch.compile(with_a_break, backend=backend2)(torch.randn(3))
    print(f"with_a_break produced {len(seen2)} graphs")
    torch._dynamo.reset()

# %% [markdown]
# ## Summary
#
# - `symbolic_trace` runs `forward` on Proxies and records a straight-line graph of six node
#   kinds; the resulting `GraphModule` runs Python code generated from that graph.
# - Passes are ordinary Python over `graph.nodes`: match a pattern, check it is valid (users,
#   modes), insert/replace/erase nodes, then `lint()` and `recompile()`.
# - Conv+BN folding is exact in eval mode and invalid in training mode or when the conv output
#   has other users; it removes a full pass over the activations.
# - Inserting observers or fake-quantise steps is the basis of FX-mode quantisation; swapping
#   operators is the basis of many model-surgery tools.
# - `torch.compile` = Dynamo (bytecode → FX graphs, with guards and graph breaks) + a backend
#   that turns each FX graph into something fast; a custom backend sees exactly those graphs.
