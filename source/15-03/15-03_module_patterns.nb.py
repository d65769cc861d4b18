# %% [markdown]
# # 15-03 · Advanced `nn.Module` patterns
#
# An `nn.Module` looks like "a class with a `forward`", but underneath it is a small registry: every
# attribute you assign is inspected by `Module.__setattr__`, and parameters, buffers and child modules are
# filed into three ordered dictionaries (`_parameters`, `_buffers`, `_modules`). Almost everything else,
# `parameters()`, `state_dict()`, `.to()`, `.train()`, hooks, walks that registry. Once you see the
# registry, the patterns in this notebook stop being tricks and become bookkeeping.
#
# **You will build**
# 1. `SkipMLP`: a network whose layers exist *conditionally* (normalisation on request, projection
#    shortcuts only where widths change) and whose residual branches can be switched off per call.
# 2. `param_groups`: optimizer parameter groups with a larger learning rate for the head and no weight
#    decay on biases and normalisation weights, covering every trainable parameter exactly once.
# 3. `convert_checkpoint`: `state_dict` surgery (rename, drop and reshape keys) so a checkpoint from an
#    older architecture loads into a new one with `strict=True`, BatchNorm statistics included.
# 4. `make_lazy_net` and `prepare_lazy`: lazy modules, materialised by a dry run that leaves no trace,
#    with the optimizer created afterwards.
# 5. `trace_activations`: forward hooks that log every layer's output and are always removed again.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now. When you
# submit, hidden checks test the same functions on fresh random models and inputs (float64), and compare
# with PyTorch's own layers and optimizers. The demos (training on FashionMNIST, plots) only run when you
# run the notebook yourself; they are skipped while grading. Keep the `def` and `class` lines of the skeletons
# as they are (the parameters' names, their order and their defaults): a hidden check compares them, and a
# parameter you add must come after them, with a default.
#
# **Validate runs only the visible checks.** "Success!" means your code passes the examples in the
# test cells, not that it earns full marks: grading runs many more hidden checks on the same functions.

# %%
# Setup: course helpers, device. Runs on CPU or GPU.
import torch
from course.student.checks import expect, expect_close, expect_equal
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden
DEVICE = pick_device()

import torch.nn as nn
import torch.nn.functional as F

_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 0. The registry behind every module
#
# Assigning `self.fc = nn.Linear(...)` does not just set an attribute: `Module.__setattr__` sees a
# `Module` and stores it in `self._modules["fc"]`. A `Parameter` goes to `self._parameters`, a tensor
# registered with `register_buffer` to `self._buffers`. A *plain Python list* of layers is stored as an
# ordinary attribute, so its layers are invisible: no parameters, not moved by `.to()`, not saved.
# That is why `nn.ModuleList` and `nn.ModuleDict` exist. The cell below shows the difference.

# %%
class ListNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4), nn.Linear(4, 4)]        # plain list: NOT registered


class ModuleListNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])


for cls in (ListNet, ModuleListNet):
    m = cls()
    print(f"{cls.__name__:14s} parameters: {sum(p.numel() for p in m.parameters()):3d}   "
          f"state_dict keys: {list(m.state_dict())}")
print("registries of one Linear:", {k: list(getattr(nn.Linear(2, 3), k)) for k in ("_parameters", "_buffers", "_modules")})
print("BatchNorm buffers:", list(dict(nn.BatchNorm1d(3).named_buffers())))

# %% [markdown]
# ## 1. Dynamic architecture: conditional layers and skip connections
#
# Because `__init__` and `forward` are ordinary Python, an architecture can depend on its arguments
# (*which layers exist*) and on each call (*which layers run*). Two kinds of condition appear here:
#
# * **Construction time.** A layer that is not needed should not exist at all, rather than exist and be
#   ignored: unused parameters still appear in `state_dict()`, still get weight decay, and break
#   `DistributedDataParallel` (it waits for gradients that never arrive).
# * **Call time.** `forward` may take extra arguments, and Python `if`/`for` decide the path. Autograd
#   records only what actually ran, so gradients automatically follow the path taken.
#
# A **skip (residual) connection** computes `out = shortcut(x) + branch(x)`. When input and output widths
# agree, the shortcut is the identity and the block only has to learn a *correction*; gradients reach
# early layers through the `+` undiminished. When widths differ, the shortcut needs a learned linear
# projection (bias-free: the branch already has a bias). Dropping a block's *branch* at call time leaves
# the shortcut, so the network still produces a valid output: this is how stochastic depth and
# "layer dropping" at inference work.
#
# ### Exercise 1: `SkipMLP` (4 points)
#
# Build the network below. Names matter: the attribute names decide the `state_dict` keys, and the
# checks (and section 3) rely on them.
#
# * `SkipMLP(in_features, widths, num_classes, norm=True)` has `self.blocks`, a registered container
#   (an `nn.ModuleList` is simplest) holding one block per entry of `widths` under the names `"0"`, `"1"`
#   and so on (block `i` maps width `widths[i-1]` to `widths[i]`; block 0 starts from `in_features`), and
#   `self.head = nn.Linear(last_width, num_classes)` where `last_width` is `widths[-1]`, or `in_features`
#   if `widths` is empty. `widths` is only read: the caller's list stays as it was, so a second model built
#   from it gets the same blocks.
# * Each block, mapping `d_in` to `d_out`, owns:
#   - `norm`: `nn.LayerNorm(d_in)` if `norm=True`; if `norm=False` it has **no** normalisation parameters
#     (use `nn.Identity()` or `None`);
#   - `fc`: `nn.Linear(d_in, d_out)`;
#   - `proj`: `nn.Linear(d_in, d_out, bias=False)` **only** if `d_in != d_out`; otherwise no parameters
#     (identity shortcut).
#
#   Its output is `shortcut(x) + relu(fc(norm(x)))`, where `shortcut` is `proj` or the identity.
# * `forward(x, drop=())`: if `x` has more than 2 dimensions (a batch of images `(N, C, H, W)`), flatten
#   everything but the batch dimension first (an empty batch `(0, C, H, W)` too: it gives `(0, num_classes)`).
#   `x` is always a batch: a single example comes as `(1, in_features)`.
#   Then run the blocks in order; for a block whose index is in `drop`, use **only its shortcut** (skip the
#   branch); an index that no block has, such as `-1` or `len(widths)`, drops nothing. Finally apply `head`.
#   The result is a new tensor: `x` itself stays as it was (under `torch.no_grad()` too).

# %% [solution] id=skipmlp_impl
class SkipBlock(nn.Module):
    """One residual block: shortcut(x) + relu(fc(norm(x)))."""

    def __init__(self, d_in, d_out, norm=True):
        super().__init__()
        ### BEGIN SOLUTION
        self.norm = nn.LayerNorm(d_in) if norm else nn.Identity()
        self.fc = nn.Linear(d_in, d_out)
        self.proj = nn.Linear(d_in, d_out, bias=False) if d_in != d_out else nn.Identity()
        ### END SOLUTION

    def forward(self, x, skip_branch=False):
        ### BEGIN SOLUTION
        shortcut = self.proj(x)
        if skip_branch:
            return shortcut
        return shortcut + torch.relu(self.fc(self.norm(x)))
        ### END SOLUTION


class SkipMLP(nn.Module):
    """Residual MLP with optional LayerNorm, projection shortcuts where widths change, and droppable blocks."""

    def __init__(self, in_features, widths, num_classes, norm=True):
        super().__init__()
        ### BEGIN SOLUTION
        self.blocks = nn.ModuleList()
        d = in_features
        for w in widths:
            self.blocks.append(SkipBlock(d, w, norm))
            d = w
        self.head = nn.Linear(d, num_classes)
        ### END SOLUTION

    def forward(self, x, drop=()):
        ### BEGIN SOLUTION
        if x.dim() > 2:
            x = x.flatten(1)
        drop = set(drop)
        for i, block in enumerate(self.blocks):
            x = block(x, skip_branch=i in drop)
        return self.head(x)
        ### END SOLUTION

# %% [tests] id=skipmlp_tests points=4
_m = SkipMLP(12, [8, 8, 5], 3)
expect_equal(tuple(_m(torch.randn(2, 12)).shape), (2, 3), "SkipMLP(12, [8, 8, 5], 3) on a (2, 12) batch")
expect_equal(tuple(_m(torch.randn(2, 3, 2, 2)).shape), (2, 3), "on a (2, 3, 2, 2) batch (images are flattened)")
expect_equal(tuple(_m(torch.randn(2, 12), drop=[1]).shape), (2, 3), "with drop=[1]")
_keys = set(_m.state_dict())
expect("blocks.0.proj.weight" in _keys, f"a projection in block 0 (12 -> 8 changes width); keys: {sorted(_keys)}")
expect("blocks.1.proj.weight" not in _keys, "no projection in block 1 (8 -> 8 keeps the width)")
expect("blocks.0.norm.weight" in _keys, "a norm layer in block 0")
expect(not any("norm" in k for k in SkipMLP(12, [8], 3, norm=False).state_dict()), "no norm layers with norm=False")
### BEGIN HIDDEN TESTS
run_hidden("15-03", "skipmlp", globals())
### END HIDDEN TESTS

# %% [markdown]
# **What the demo shows.** We train a deep `SkipMLP` and the same stack *without* its skip connections
# on FashionMNIST, then switch off one block at a time at test time. Without shortcuts, depth makes the
# gradient signal at the first layers tiny, and training stalls; with them, loss falls quickly, and
# removing a single block at test time usually costs only a little accuracy, since each block learned a
# correction to what came through the shortcut.

# %%
from course.student.data import load


def fashion_tensors(train=True, n=None):
    """The first n images and labels of FashionMNIST (or its synthetic stand-in) as two tensors."""
    ds = load("fashionmnist", train=train, verbose=False)
    n = len(ds) if n is None else min(n, len(ds))
    xs, ys = zip(*(ds[i] for i in range(n)))
    return torch.stack(xs), torch.tensor(ys)


class PlainMLP(nn.Module):
    """The same stack as SkipMLP, with no shortcuts at all."""

    def __init__(self, in_features, widths, num_classes):
        super().__init__()
        dims = [in_features, *widths]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x, drop=()):
        x = x.flatten(1)
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


def train_steps(model, xs, ys, steps=300, lr=1e-3, batch=128, desc="training", make_opt=None):
    """A plain Adam loop over random mini-batches; returns the loss per step."""
    from tqdm.auto import tqdm
    model.to(DEVICE).train()
    opt = make_opt(model) if make_opt else torch.optim.Adam(model.parameters(), lr=lr)
    g = torch.Generator().manual_seed(0)
    losses = []
    for _ in tqdm(range(steps), desc=desc, leave=False):
        idx = torch.randint(0, len(xs), (batch,), generator=g)
        loss = F.cross_entropy(model(xs[idx].to(DEVICE)), ys[idx].to(DEVICE))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@torch.no_grad()
def accuracy(model, xs, ys, **kw):
    model.eval()
    return (model(xs.to(DEVICE), **kw).argmax(1).cpu() == ys).float().mean().item()


if run_demos():
    import matplotlib.pyplot as plt
    x_tr, y_tr = fashion_tensors(True, 6000)
    x_te, y_te = fashion_tensors(False, 1000)
    widths = [64] * 12
    torch.manual_seed(0)
    skip = SkipMLP(784, widths, 10, norm=True)
    plain = PlainMLP(784, widths, 10)
    curves = {"SkipMLP (12 residual blocks)": train_steps(skip, x_tr, y_tr, desc="SkipMLP"),
              "same depth, no shortcuts": train_steps(plain, x_tr, y_tr, desc="PlainMLP")}
    fig, ax = plt.subplots(1, 2, figsize=(11, 3.5))
    for name, c in curves.items():
        ax[0].plot(torch.tensor(c).unfold(0, 10, 1).mean(1), label=name)
    ax[0].set(xlabel="step", ylabel="training loss (moving avg)", title="Skip connections keep deep nets trainable")
    ax[0].legend()
    base = accuracy(skip, x_te, y_te)
    dropped = [accuracy(skip, x_te, y_te, drop=[i]) for i in range(len(widths))]
    ax[1].bar(range(len(widths)), dropped, color="tab:orange", label="one block's branch dropped")
    ax[1].axhline(base, color="k", ls="--", label=f"all blocks ({base:.2f})")
    ax[1].set(xlabel="dropped block", ylabel="test accuracy", title="Dropping a block at test time")
    ax[1].legend(loc="lower right")
    plt.tight_layout()
    plt.show()
    print(f"plain stack accuracy: {accuracy(plain, x_te, y_te):.3f}")

# %% [markdown]
# ## 2. Parameter groups
#
# An optimizer does not see a model, it sees a list of **parameter groups**: dicts with a `"params"` list
# and any hyperparameter overrides (`"lr"`, `"weight_decay"`, ...); keys a group leaves out are filled
# from the optimizer's defaults. `opt.param_groups` is that list after filling in, and LR schedulers
# simply rewrite `group["lr"]` in place. Two standard uses:
#
# * **Different learning rates.** When fine-tuning, a freshly initialised head should move fast while a
#   pretrained body moves slowly (or not at all: frozen parameters, `requires_grad=False`, should not be
#   handed to the optimizer).
# * **No weight decay on biases and normalisation weights.** Decoupled weight decay (AdamW) shrinks each
#   parameter towards 0 every step. For a weight matrix that is a useful prior; for a bias or a
#   LayerNorm/BatchNorm scale it only fights the quantity the layer exists to learn (pulling a norm's
#   scale to 0 switches the features off). In the models used here those are exactly the 1-D parameters (a
#   0-dim parameter, such as a learned temperature, is neither).
#
# The bookkeeping trap: PyTorch refuses a parameter that appears in two groups (`ValueError`), but it
# says nothing about a parameter that appears in **none**: that parameter silently never trains. And
# with shared (tied) weights, iterating over modules finds the same tensor twice;
# `model.named_parameters()` lists each tensor once.
#
# ### Exercise 2: `param_groups` (4 points)
#
# `param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head")` returns a list of group
# dicts for `torch.optim.AdamW`, each with the keys `"params"`, `"lr"` and `"weight_decay"`, such that:
#
# * every parameter with `requires_grad=True` is in exactly one group; frozen parameters are in none;
# * a parameter whose qualified name starts with `head_prefix + "."` gets `lr * head_lr_mult`, all others
#   get `lr`;
# * biases (`bias`, and also the ones recurrent and attention layers name `bias_ih_l0`, `bias_hh_l0`,
#   `in_proj_bias`) and the parameters of normalisation layers (`BatchNorm*`, `LayerNorm`, `GroupNorm`,
#   `InstanceNorm*`) get `weight_decay=0.0`; all other parameters get `weight_decay`.

# %% [solution] id=param_groups_impl
NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)


def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    """Parameter groups: head vs body learning rate, no weight decay on biases and norm parameters."""
    ### BEGIN SOLUTION
    norm_params = {id(p) for m in model.modules() if isinstance(m, NORM_LAYERS) for p in m.parameters(recurse=False)}
    buckets = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        in_head = name.startswith(head_prefix + ".")
        leaf = name.rsplit(".", 1)[-1]  # bias, bias_ih_l0 (LSTM), in_proj_bias (attention)
        no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params
        buckets.setdefault((in_head, no_decay), []).append(p)
    return [{"params": ps, "lr": lr * head_lr_mult if in_head else lr,
             "weight_decay": 0.0 if no_decay else weight_decay}
            for (in_head, no_decay), ps in buckets.items()]
    ### END SOLUTION

# %% [tests] id=param_groups_tests points=4
_net = nn.Sequential()
_net.add_module("body", nn.Linear(3, 4))
_net.add_module("ln", nn.LayerNorm(4))
_net.add_module("head", nn.Linear(4, 2))
_groups = param_groups(_net, lr=0.01, weight_decay=0.1)
_seen = [p for g in _groups for p in g["params"]]
expect_equal(len(_seen), len(list(_net.parameters())), "the number of parameters in all groups together")
expect_equal(len({id(p) for p in _seen}), len(_seen), "the number of distinct parameters (none twice)")
for _g in _groups:
    expect({"params", "lr", "weight_decay"} <= set(_g), f"a group with params, lr and weight_decay; got {sorted(_g)}")
    for _p in _g["params"]:
        if _p is _net.head.weight:
            expect_equal((_g["lr"], _g["weight_decay"]), (0.1, 0.1), "(lr, weight_decay) of head.weight")
        if _p is _net.ln.weight or _p is _net.body.bias:
            expect_equal((_g["lr"], _g["weight_decay"]), (0.01, 0.0), "(lr, weight_decay) of a norm weight or bias")
torch.optim.AdamW(_groups)                                   # accepted by a real optimizer
### BEGIN HIDDEN TESTS
run_hidden("15-03", "param_groups", globals())
### END HIDDEN TESTS

# %%
def describe_groups(model, groups):
    """One line per group: how many tensors, lr, weight decay, and a few parameter names."""
    names = {id(p): n for n, p in model.named_parameters()}
    for i, g in enumerate(groups):
        ns = [names[id(p)] for p in g["params"]]
        print(f"group {i}: {len(ns):2d} tensors  lr={g['lr']:.0e}  wd={g['weight_decay']:<5}  e.g. {ns[:3]}")


if run_demos():
    _demo = SkipMLP(784, [64, 32], 10)
    describe_groups(_demo, param_groups(_demo, lr=1e-3, weight_decay=0.05))

# %% [markdown]
# **Demo: what weight decay does to LayerNorm scales.** We train the same `SkipMLP` twice with a (very)
# strong AdamW weight decay: once applied to everything, once through `param_groups`. Then we look at the
# LayerNorm scales: decayed, they are pulled far below their initial value 1; exempted, they stay where
# the data wants them.

# %%
if run_demos():
    import matplotlib.pyplot as plt
    x_tr, y_tr = fashion_tensors(True, 6000)
    x_te, y_te = fashion_tensors(False, 1000)
    wd, results = 0.5, {}
    for label, make in [("decay on everything", lambda m: torch.optim.AdamW(m.parameters(), lr=2e-3, weight_decay=wd)),
                        ("param_groups", lambda m: torch.optim.AdamW(param_groups(m, 2e-3, wd, head_lr_mult=3.0)))]:
        torch.manual_seed(0)
        model = SkipMLP(784, [64] * 4, 10)
        train_steps(model, x_tr, y_tr, steps=400, desc=label, make_opt=make)
        scales = torch.cat([b.norm.weight.detach().cpu() for b in model.blocks])
        results[label] = scales
        print(f"{label:22s} test accuracy {accuracy(model, x_te, y_te):.3f}   "
              f"mean LayerNorm scale {scales.mean():.3f}")
    plt.figure(figsize=(6, 3))
    for label, s in results.items():
        plt.hist(s.numpy(), bins=40, alpha=0.6, label=label)
    plt.xlabel("LayerNorm weight value")
    plt.legend()
    plt.title("LayerNorm scales after training with weight decay 0.5")
    plt.show()

# %% [markdown]
# ## 3. `state_dict` surgery
#
# A checkpoint is just `model.state_dict()`: an ordered dict from **qualified names** (the attribute path,
# `"features.1.running_mean"`) to tensors, parameters *and* buffers. Loading is matching names:
# `load_state_dict(sd, strict=True)` copies `sd[name]` into the tensor with that name, and raises if any
# name is missing or unexpected, or a shape differs. `strict=False` turns missing and unexpected names
# into a returned report instead of an error, which is how bugs hide: a half-loaded model trains from a
# partly random start and nobody notices. So when an architecture changes, we **edit the dict** until
# `strict=True` is happy:
#
# * **rename**: the same layer under a new path (`features.0.*` becomes `block1.conv.*`);
# * **drop**: weights the new model has no place for (an auxiliary head);
# * **reshape**: the same numbers in a new layout. A `Linear(C*7*7, H)` applied to a flattened
#   `(C, 7, 7)` map computes exactly what a `Conv2d(C, H, kernel_size=7)` computes on that map, because
#   `flatten` orders features channel-major, just like the conv weight `(H, C, 7, 7)` does. Likewise a
#   `Linear(H, K)` is a 1x1 convolution with weight `(K, H, 1, 1)`.
#
# Do not forget the **buffers**. A BatchNorm layer's `running_mean`, `running_var` and
# `num_batches_tracked` are what it uses at evaluation time; lose them (or let `strict=False` skip them)
# and the converted model's predictions are garbage even though every *parameter* was copied.
#
# Here is the old model (its checkpoints exist) and the new, fully convolutional one.

# %%
class OldNet(nn.Module):
    """Version 1 of our FashionMNIST classifier."""

    def __init__(self, c1=8, c2=16, hidden=64, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(c1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(c2 * 7 * 7, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, num_classes))
        self.aux = nn.Linear(hidden, num_classes)      # an auxiliary head used only during training

    def forward(self, x):
        return self.classifier(self.features(x))


class ConvBNReLU(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.bn = nn.BatchNorm2d(c_out)

    def forward(self, x):
        return torch.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)


class NewNet(nn.Module):
    """Version 2: named blocks, and the classifier as a 7x7 convolution followed by a 1x1 convolution."""

    def __init__(self, c1=8, c2=16, hidden=64, num_classes=10):
        super().__init__()
        self.block1 = ConvBNReLU(1, c1)
        self.block2 = ConvBNReLU(c1, c2)
        self.fc = nn.Conv2d(c2, hidden, 7)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Conv2d(hidden, num_classes, 1)

    def forward(self, x):
        h = self.block2(self.block1(x))
        h = self.drop(torch.relu(self.fc(h)))
        return self.out(h).flatten(1)


for name, m in [("OldNet", OldNet()), ("NewNet", NewNet())]:
    print(name, {k: tuple(v.shape) for k, v in m.state_dict().items()})
print()
print(NewNet().load_state_dict(OldNet().state_dict(), strict=False))

# %% [markdown]
# ### Exercise 3: `convert_checkpoint` (4 points)
#
# `convert_checkpoint(old_state)` takes the `state_dict` of an `OldNet(c1, c2, hidden, num_classes)`
# (any sizes: read them from the tensors, do not hard-code 8/16/64/10) and returns a **new** dict such
# that `NewNet(c1, c2, hidden, num_classes).load_state_dict(result, strict=True)` succeeds and, in eval
# mode, the new model computes exactly the old model's outputs. Rename every parameter *and buffer*,
# drop the auxiliary head, reshape the two classifier weights (biases keep their shape). Do not modify
# `old_state` itself, and keep dtypes as they are.

# %% [solution] id=convert_impl
def convert_checkpoint(old_state):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    ### BEGIN SOLUTION
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.",
               "features.4.": "block2.conv.", "features.5.": "block2.bn.",
               "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        new_key = renames[prefix] + key[len(prefix):]
        if new_key == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        elif new_key == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[new_key] = value
    return new
    ### END SOLUTION

# %% [tests] id=convert_tests points=4
_old = OldNet().eval()
_sd = _old.state_dict()
_n_keys = len(_sd)
_new = NewNet().eval()
_new.load_state_dict(convert_checkpoint(_sd), strict=True)
expect_equal(len(_sd), _n_keys, "the number of keys of the old state dict (convert_checkpoint leaves it alone)")
_x = torch.rand(4, 1, 28, 28)
with torch.no_grad():
    expect_close(_new(_x), _old(_x), "NewNet with the converted weights vs OldNet on the same input", atol=1e-5)
### BEGIN HIDDEN TESTS
run_hidden("15-03", "convert", globals())
### END HIDDEN TESTS

# %% [markdown]
# **Demo.** Train `OldNet` briefly, save its checkpoint to disk, convert it, and load it into `NewNet`.
# The predictions agree exactly. Then we sabotage the conversion by dropping the BatchNorm buffers and
# loading with `strict=False`: the load "succeeds", and the accuracy collapses.

# %%
if run_demos():
    import io
    x_tr, y_tr = fashion_tensors(True, 6000)
    x_te, y_te = fashion_tensors(False, 1000)
    torch.manual_seed(0)
    old = OldNet()
    train_steps(old, x_tr, y_tr, steps=300, desc="OldNet")
    buf = io.BytesIO()
    torch.save(old.state_dict(), buf)                            # the "old checkpoint file"
    buf.seek(0)
    ckpt = torch.load(buf, weights_only=True)
    new = NewNet().to(DEVICE)
    print(new.load_state_dict(convert_checkpoint(ckpt), strict=True))
    print(f"OldNet accuracy {accuracy(old, x_te, y_te):.3f}   converted NewNet accuracy {accuracy(new, x_te, y_te):.3f}")
    with torch.no_grad():
        old.eval(), new.eval()
        print("max |difference| in logits:", (old(x_te[:256].to(DEVICE)) - new(x_te[:256].to(DEVICE))).abs().max().item())
    lossy = {k: v for k, v in convert_checkpoint(ckpt).items() if "running" not in k and "num_batches" not in k}
    broken = NewNet().to(DEVICE)
    report = broken.load_state_dict(lossy, strict=False)
    print("strict=False silently skipped:", report.missing_keys)
    print(f"accuracy without the BatchNorm statistics: {accuracy(broken, x_te, y_te):.3f}")

# %% [markdown]
# ## 4. Lazy modules
#
# `nn.LazyLinear(out_features)` does not know its `in_features`. Until its first forward call, its weight
# is an `UninitializedParameter`: a placeholder with no storage and no shape. A forward **pre-hook**
# registered by `LazyModuleMixin` runs before the first call, reads the input's shape, calls
# `initialize_parameters`, which *materialises* the placeholders in place (same Python objects, now real
# tensors), and then removes itself; the module even changes its class to plain `nn.Linear`.
#
# This makes a model definition independent of the input size, at the price of a ritual:
#
# 1. **Move and cast first.** `.to(device, dtype)` on a lazy model only records where the parameters
#    should live; the dry run then creates them there. A float32 lazy model that meets float64 data
#    materialises float32 weights and fails.
# 2. **Dry run** one representative batch, under `torch.no_grad()` (no graph is needed), and in `eval()`
#    mode: in training mode, BatchNorm layers would update their running statistics with the dry-run
#    batch. Restore the previous mode afterwards.
#    Use `torch.no_grad()`, **not** `torch.inference_mode()`: tensors created under inference mode are
#    "inference tensors" forever, and parameters materialised there make the first training step fail
#    with "Inference tensors cannot be saved for backward".
# 3. **Then** create the optimizer, and anything else that inspects parameter shapes (counting
#    parameters, initialisation schemes, `param_groups`, `DistributedDataParallel`). Before the dry run
#    there is nothing to inspect: `p.numel()` raises, and code that builds per-parameter state would
#    build it for placeholders. (In current PyTorch, a plain SGD or Adam created *before* the dry run
#    happens to keep working, because materialisation mutates the same `Parameter` objects in place, as
#    the cell below shows. Do not rely on it: it is exactly the code that looks at shapes, sizes or
#    dtypes at construction time that breaks.)

# %%
lazy = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(2))
print("before:", [type(p).__name__ for p in lazy.parameters()], "lazy?", lazy[0].has_uninitialized_params())
try:
    sum(p.numel() for p in lazy.parameters())
except ValueError as e:
    print("counting parameters before the dry run:", str(e)[:90], "...")
w_obj = lazy[0].weight
with torch.no_grad():
    lazy(torch.randn(1, 5))
print("after: ", [tuple(p.shape) for p in lazy.parameters()], "| layer class now:", type(lazy[0]).__name__,
      "| same Parameter object:", lazy[0].weight is w_obj)

# %% [markdown]
# ### Exercise 4: lazy modules (3 points)
#
# * `make_lazy_net(num_classes)` returns a model (an `nn.Sequential` is simplest) for images `(N, C, H, W)` of **any** channel
#   count and size, with no input size written anywhere, computing these layers in this order:
#   `LazyConv2d(16, 3, padding=1)`, ReLU, `MaxPool2d(2)`, Flatten, `LazyLinear(64)`, ReLU, `LazyLinear(num_classes)`.
# * `prepare_lazy(model, example, lr)` takes a (possibly lazy) model and one example batch (a batch of
#   one example too), moves and casts the model to `example`'s device and dtype, dry-runs it on `example`
#   **without leaving a trace** (no autograd graph, no change to BatchNorm running statistics or to the
#   values of parameters that already exist, beyond the cast, and every module back in the train/eval
#   mode it was in), and returns `torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)`, created
#   after the dry run.

# %% [solution] id=lazy_impl
def make_lazy_net(num_classes):
    """A small CNN made of lazy layers: works for any input channel count and image size."""
    ### BEGIN SOLUTION
    return nn.Sequential(
        nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
        nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(num_classes))
    ### END SOLUTION


def prepare_lazy(model, example, lr):
    """Cast/move, dry-run without side effects, then build the optimizer."""
    ### BEGIN SOLUTION
    model.to(device=example.device, dtype=example.dtype)
    modes = {m: m.training for m in model.modules()}
    model.eval()
    try:
        with torch.no_grad():
            model(example)
    finally:
        for m, mode in modes.items():
            m.training = mode
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    ### END SOLUTION

# %% [tests] id=lazy_tests points=3
_lz = make_lazy_net(10)
expect(any(isinstance(p, nn.parameter.UninitializedParameter) for p in _lz.parameters()),
       "make_lazy_net(10) has uninitialized (lazy) parameters before its first forward")
_opt = prepare_lazy(_lz, torch.randn(2, 3, 12, 12, dtype=torch.float64), lr=0.1)
expect(not any(isinstance(p, nn.parameter.UninitializedParameter) for p in _lz.parameters()),
       "every parameter is materialized after prepare_lazy")
expect(all(p.dtype == torch.float64 for p in _lz.parameters()), "parameters in the example's dtype (float64)")
expect(isinstance(_opt, torch.optim.SGD), f"prepare_lazy returns a torch.optim.SGD, got {type(_opt).__name__}")
expect(_lz.training, "the network is left in training mode")
expect_equal(tuple(_lz(torch.randn(5, 3, 12, 12, dtype=torch.float64)).shape), (5, 10), "the output shape")
### BEGIN HIDDEN TESTS
run_hidden("15-03", "lazy", globals())
### END HIDDEN TESTS

# %% [markdown]
# **Demo.** One definition, two data sets: the same `make_lazy_net` fits FashionMNIST (1x28x28) and
# CIFAR-10 (3x32x32) without changing a number; the dry run decides the parameter count.

# %%
if run_demos():
    for name in ("fashionmnist", "cifar10"):
        ds = load(name, train=True, verbose=False)
        xs, ys = zip(*(ds[i] for i in range(3000)))
        xs, ys = torch.stack(xs), torch.tensor(ys)
        torch.manual_seed(0)
        net = make_lazy_net(10)
        prepare_lazy(net, xs[:2].to(DEVICE), lr=0.05)
        n = sum(p.numel() for p in net.parameters())
        losses = train_steps(net, xs, ys, steps=150, desc=name,
                             make_opt=lambda m: torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9))
        print(f"{name:13s} input {tuple(xs.shape[1:])}: {n:7d} parameters, "
              f"loss {sum(losses[:10]) / 10:.2f} -> {sum(losses[-10:]) / 10:.2f}")

# %% [markdown]
# ## 5. Module hooks for logging and debugging
#
# `Module.__call__` is more than `forward`: it runs the module's (and the global) **forward pre-hooks**,
# then `forward`, then the **forward hooks** `hook(module, inputs, output)`, and, if anyone asked, wires up
# backward hooks. A hook can observe (log shapes and statistics, catch the first NaN), or change things
# (a forward hook that returns a value replaces the output). Registering returns a
# `RemovableHandle`; hooks live in the module's `_forward_hooks` dict until `handle.remove()` is called.
#
# Forgetting to remove them is the classic bug: every later forward pass still runs the logger, memory
# grows as records pile up (each may hold a tensor, and with it the autograd graph), and the next
# debugging session stacks a second copy on top. Removal belongs in a `finally:` block so it also happens
# when the forward pass raises, which is exactly when you are debugging. And never clear
# `module._forward_hooks` wholesale: that deletes hooks other code registered.
#
# ### Exercise 5: `trace_activations` (4 points)
#
# `trace_activations(model, x)` runs `model(x)` once with a forward hook on every **leaf** module (a
# module without children, found through `model.named_modules()`), and returns `(output, records)`:
# `output` is what `model(x)` returned, `records` a new list (each call returns its own) with one dict
# per leaf-module *call*, in call order (a module used twice gives two records), with keys
# `"name"` (its qualified name), `"shape"` (output shape as a tuple), `"mean"` and `"std"` (Python floats:
# `output.mean()`, `output.std()` with PyTorch's default correction; taking them in a wider dtype such as
# float64 is fine too) and `"finite"` (`True` if every output value is finite). Afterwards the model must carry exactly the hooks it had before, also when
# `forward` raises (the exception must still reach the caller).

# %% [solution] id=trace_impl
def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    ### BEGIN SOLUTION
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            records.append({"name": name, "shape": tuple(out.shape), "mean": out.mean().item(),
                            "std": out.std().item(), "finite": bool(torch.isfinite(out).all())})
        return hook

    try:
        for name, module in model.named_modules():
            if next(module.children(), None) is None:
                handles.append(module.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
    ### END SOLUTION

# %% [tests] id=trace_tests points=4
_net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Sequential(nn.Linear(6, 2), nn.Tanh()))
_x = torch.randn(8, 4)
_out, _recs = trace_activations(_net, _x)
expect_equal([r["name"] for r in _recs], ["0", "1", "2.0", "2.1"], "the names of the recorded leaf modules, in order")
expect_equal(tuple(_recs[2]["shape"]), (8, 2), "the recorded shape of module 2.0")
expect(all(r["finite"] for r in _recs), "every record says its output is finite")
expect_close(_out, _net(_x), "the output trace_activations returns vs net(x)")
expect(all(len(m._forward_hooks) == 0 for m in _net.modules()), "every hook is removed afterwards")
### BEGIN HIDDEN TESTS
run_hidden("15-03", "trace", globals())
### END HIDDEN TESTS

# %% [markdown]
# **Demo: reading a network's vital signs.** We trace the 12-block `SkipMLP` (untrained and briefly
# trained) on a FashionMNIST batch and plot each layer's output scale. Then we plant a bug, one weight
# scaled by 1e30, and let the `finite` flags point at the first layer whose output overflowed. (Often
# that is not the scaled layer itself, whose outputs of about 1e30 still fit in float32, but the next
# LayerNorm, which squares them: the flag shows where the damage becomes visible.)

# %%
if run_demos():
    import matplotlib.pyplot as plt
    x_tr, y_tr = fashion_tensors(True, 6000)
    torch.manual_seed(0)
    net = SkipMLP(784, [64] * 12, 10).to(DEVICE)
    batch = x_tr[:256].to(DEVICE)
    _, before = trace_activations(net.eval(), batch)
    train_steps(net, x_tr, y_tr, steps=200, desc="SkipMLP")
    with torch.no_grad():
        _, after = trace_activations(net.eval(), batch)
    fcs = [i for i, r in enumerate(before) if r["name"].endswith(".fc")]
    plt.figure(figsize=(9, 3))
    plt.plot([before[i]["std"] for i in fcs], "o-", label="untrained")
    plt.plot([after[i]["std"] for i in fcs], "o-", label="after 200 steps")
    plt.xticks(range(len(fcs)), [before[i]["name"] for i in fcs], rotation=45)
    plt.ylabel("std of fc output")
    plt.legend()
    plt.title("Per-layer activation scale, logged with forward hooks")
    plt.tight_layout()
    plt.show()
    with torch.no_grad():
        net.blocks[5].fc.weight[0] *= 1e30                      # the planted bug
        _, recs = trace_activations(net, batch)
    first = next(r for r in recs if not r["finite"])
    print("first non-finite output:", first["name"], "| hooks left afterwards:",
          sum(len(m._forward_hooks) for m in net.modules()))

# %% [markdown]
# ## Summary
#
# * A module is a registry (`_parameters`, `_buffers`, `_modules`); `ModuleList`/`ModuleDict` make
#   containers visible to it, and conditional layers should be *absent*, not idle.
# * Residual blocks add a learned correction to a shortcut (identity or a bias-free projection), which
#   keeps deep stacks trainable and lets you drop a block's branch at call time.
# * Optimizers see parameter groups; check that the groups cover every trainable parameter exactly once,
#   and keep weight decay off biases and normalisation parameters.
# * A checkpoint is a dict of names: rename, drop and reshape it until `strict=True` loads it, and carry
#   the buffers over.
# * Lazy modules: cast and move, dry-run without side effects, then build the optimizer.
# * Hooks are powerful and persistent: always keep the handles and remove them in `finally`.
