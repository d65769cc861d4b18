# %% [markdown]
# # 00-03 · Training lab bench
#
# Every training script repeats the same few moves: cut the data into batches, run forward and backward,
# let an optimizer move the weights, change the learning rate on a schedule, and (with mixed precision) guard
# the step against overflowing gradients. Libraries hide each move behind one call. In this notebook you open
# those calls up, rebuild the parts that matter, and check each against PyTorch's own version, number for
# number. Module 15 builds a full trainer on top of exactly these parts.
#
# **You will build**
# 1. `accumulate_grads`: gradient accumulation over micro-batches that gives the same gradients as one big
#    batch, even when the last micro-batch is smaller.
# 2. `MomentumSGD`: SGD with momentum, dampening, Nesterov and weight decay, matching `torch.optim.SGD` step
#    for step and sharing its saved state format.
# 3. `ScratchAdamW`: Adam with decoupled weight decay and bias correction, matching `torch.optim.AdamW` step
#    for step, state included.
# 4. `warmup_cosine_lr`: a linear warm-up followed by cosine decay, equal to PyTorch's chained schedulers.
# 5. `pad_collate`: a collate function that turns sequences of different lengths into one padded batch.
#
# Along the way (taught, not graded): parameters versus buffers and what `.to(dtype)` converts, `GradScaler`'s skip-on-overflow rule, `torch.compile` against eager, and reading a
# profiler table. The demos use CIFAR-10 (a synthetic stand-in is used when the data is not on disk).
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same code much harder: random models, uneven batches,
# several parameter groups, a save and resume after every step, and edge cases. Heavy demos below only run
# when you run the notebook yourself (`run_demos()` is False while grading); all of them together take about
# a minute on a laptop CPU. Keep the `def` and `class` lines of the skeletons as they are (the parameters'
# names, their order and their defaults): a hidden check compares them, and a parameter you add must come after
# them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)

# %% [markdown]
# ## 0. Parameters and buffers
#
# A module owns two kinds of tensors. **Parameters** (`nn.Parameter`) are what the optimizer trains: they
# appear in `parameters()` and in `state_dict()`. **Buffers** (`register_buffer`) are state that is not trained,
# such as BatchNorm's running statistics or a step counter. A buffer is *persistent* by default (saved in
# `state_dict()`); with `persistent=False` it still moves with the module but is not saved. Neither kind of
# buffer is in `parameters()`, so no optimizer touches it.
#
# `.to(dtype)`, `.double()` and `.half()` convert only **floating point** parameters and buffers; an integer
# buffer such as a counter keeps its dtype. `.to(device)` moves all of them. The cell below shows each rule.

# %%
class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("running", torch.zeros(2))                 # persistent, float
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))  # persistent, integer
        self.register_buffer("scratch", torch.zeros(2), persistent=False)  # not saved


_m = Tracker().double()
print("parameters():", [n for n, _ in _m.named_parameters()])
print("buffers():   ", [n for n, _ in _m.named_buffers()])
print("state_dict():", list(_m.state_dict()))
print("dtypes after .double():", {n: str(t.dtype) for n, t in _m.named_buffers()})

# %% [markdown]
# ## 1. Gradient accumulation
#
# A batch of 256 images may not fit in memory while 64 do. Gradient accumulation runs the 256 as four
# micro-batches of 64, calls `backward()` after each, and lets the gradients add up in `.grad` before a single
# optimizer step. The result must be the gradient of the big batch's loss, and that needs care with the
# scaling. A loss with `reduction="mean"` is
#
# $$L = \frac{1}{N}\sum_{i=1}^{N} \ell_i = \sum_{j} \frac{n_j}{N}\, \underbrace{\frac{1}{n_j}\sum_{i \in j} \ell_i}_{L_j},$$
#
# so micro-batch $j$ with $n_j$ samples must contribute $\frac{n_j}{N} L_j$. The common shortcut, dividing
# every micro-loss by the number of micro-batches $k$, is right only when all micro-batches have the same size;
# with 10 samples in micro-batches of 4, 4 and 2 it gives the last two samples twice their weight.
#
# The worked example compares both weightings with the full batch on a small model.

# %%
def _demo_grads(model, x, y, sizes, weight):
    model.zero_grad()
    for xb, yb in zip(x.split(sizes), y.split(sizes)):
        (F.mse_loss(model(xb), yb) * weight(len(xb))).backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()])


_net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).double()
_x, _y = torch.randn(10, 3, dtype=torch.float64), torch.randn(10, 1, dtype=torch.float64)
_net.zero_grad()
F.mse_loss(_net(_x), _y).backward()
_full = torch.cat([p.grad.flatten() for p in _net.parameters()])
_by_count = _demo_grads(_net, _x, _y, [4, 4, 2], lambda n: n / 10)
_by_k = _demo_grads(_net, _x, _y, [4, 4, 2], lambda n: 1 / 3)
print(f"weights n_j/N: max difference {(_by_count - _full).abs().max().item():.1e}")
print(f"weights 1/k:   max difference {(_by_k - _full).abs().max().item():.1e}")

# %% [markdown]
# ### Exercise 1 · `accumulate_grads` (3 points)
#
# `accumulate_grads(model, loss_fn, batch, micro_batches)` runs one big batch as micro-batches.
#
# * `batch` is a pair `(inputs, targets)` of tensors whose first dimension is the batch size `N >= 1`;
#   `loss_fn(output, target)` averages over the samples of its batch (like `F.mse_loss` or `F.cross_entropy`).
# * Split the batch into at most `micro_batches` consecutive micro-batches of at most `ceil(N / micro_batches)`
#   samples each, in order; never call the model on an empty micro-batch (`micro_batches` may exceed `N`).
# * Call `model(inputs_j)` once per micro-batch and `backward()` on its weighted loss before the next
#   micro-batch's forward (so that only one micro-batch's graph is alive at a time). Afterwards every
#   parameter's `.grad` holds what it held before the call plus the gradient of `loss_fn(model(inputs),
#   targets)` on the full batch (to float rounding), as a single full-batch `backward()` would, with the model in
#   the mode it is in (in eval mode, dropout and batch norm act as in eval mode).
# * Return the full batch's loss as a Python float.
# * Leave the parameter values, the model's train/eval mode and the global grad mode as they were.

# %% [solution] id=accumulate_impl
def accumulate_grads(model, loss_fn, batch, micro_batches):
    """Accumulate the full-batch gradient of loss_fn over micro-batches; return the full-batch loss (float)."""
    ### BEGIN SOLUTION
    inputs, targets = batch
    n = inputs.shape[0]
    size = -(-n // micro_batches)
    total = 0.0
    for xb, yb in zip(inputs.split(size), targets.split(size)):
        loss = loss_fn(model(xb), yb)
        weight = xb.shape[0] / n
        (loss * weight).backward()
        total += loss.item() * weight
    return total
    ### END SOLUTION


# %% [tests] id=accumulate_tests points=3
_net.zero_grad()
_loss = accumulate_grads(_net, F.mse_loss, (_x, _y), micro_batches=3)
expect_close(torch.cat([p.grad.flatten() for p in _net.parameters()]), _full,
             "the gradients after accumulate_grads(net, F.mse_loss, (x, y), 3) with 10 samples",
             atol=1e-10, rtol=1e-8)
expect_close(_loss, F.mse_loss(_net(_x), _y).item(), "the loss accumulate_grads returns", atol=1e-10, rtol=1e-8)
expect(isinstance(_loss, float), "accumulate_grads returns a Python float")
### BEGIN HIDDEN TESTS
run_hidden("00-03", "accumulate", globals())
### END HIDDEN TESTS

# %% [markdown]
# The demo trains the same small CNN on CIFAR-10 twice from the same start: once with batches of 64, once
# with micro-batches of 16 accumulated four at a time. The two loss curves lie on top of each other (they
# differ only by float rounding). About 15 seconds on a CPU.

# %%
if run_demos():
    import matplotlib.pyplot as plt
    from tqdm.auto import tqdm

    from course.student.data import load

    cifar = load("cifar10", train=True)
    images = torch.stack([cifar[i][0] for i in range(64 * 30)])
    labels = torch.tensor([cifar[i][1] for i in range(64 * 30)])

    def small_cnn():
        torch.manual_seed(1)
        return nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 15 * 15, 10))

    curves = {}
    for k in (1, 4):
        model = small_cnn()
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        losses = []
        for step in tqdm(range(30), desc=f"micro_batches={k}"):
            sl = slice(64 * step, 64 * (step + 1))
            opt.zero_grad()
            losses.append(accumulate_grads(model, F.cross_entropy, (images[sl], labels[sl]), k))
            opt.step()
        curves[k] = losses
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.plot(curves[1], label="one batch of 64")
    ax.plot(curves[4], "--", label="4 micro-batches of 16")
    ax.set_xlabel("step")
    ax.set_ylabel("training loss")
    ax.legend()
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## 2. What an optimizer step really does
#
# `torch.optim.SGD` with all its options is four lines per parameter $p$ with gradient $g$, at step $t$:
#
# 1. weight decay (an L2 penalty added to the gradient): $d = g + \lambda p$;
# 2. momentum: on the first step the buffer is a copy of $d$, $b_1 = d$; afterwards
#    $b_t = \mu\, b_{t-1} + (1 - \tau)\, d$ with dampening $\tau$ (dampening is *not* applied on the first step);
# 3. Nesterov looks one step ahead: $d \leftarrow d + \mu\, b_t$; otherwise $d \leftarrow b_t$ (when $\mu \ne 0$);
# 4. the update: $p \leftarrow p - \eta\, d$.
#
# With $\mu = 0$ steps 2 and 3 are skipped and no buffer is kept. A parameter whose `.grad` is `None` is skipped
# entirely: no update, no state. The buffer lives in `optimizer.state[p]["momentum_buffer"]`, and `state_dict()`
# saves it, which is why a run resumed from a checkpoint continues exactly.
#
# `torch.optim.Optimizer` already provides the bookkeeping: `self.param_groups` (a list of dicts, each with its
# own `params` and hyperparameters, filled from `defaults`), `self.state` (a dict per parameter), `zero_grad()`,
# and `state_dict()` / `load_state_dict()`. A new optimizer only writes `__init__` and `step`. The worked example
# below is plain gradient descent written that way.

# %%
class PlainGD(torch.optim.Optimizer):
    def __init__(self, params, lr):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])


_w = torch.tensor([1.0, -2.0], requires_grad=True)
_opt = PlainGD([_w], lr=0.1)
(_w ** 2).sum().backward()
_opt.step()
print(_w)  # each weight moved by -0.1 * 2w

# %% [markdown]
# ### Exercise 2 · `MomentumSGD` (4 points)
#
# Write `MomentumSGD(params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False)` as a subclass
# of `torch.optim.Optimizer`, following the four lines above. `params` is anything `torch.optim.SGD` takes: a list
# of tensors, a one-shot iterator such as `model.parameters()`, or a list of group dicts.
#
# * After any number of `step()` calls, every parameter equals what `torch.optim.SGD` with the same arguments
#   gives from the same start and the same gradients (inf and nan included), to float64 rounding (relative
#   1e-12), including models given as several parameter groups with different hyperparameters, and
#   hyperparameters changed in `self.param_groups` between steps (as a scheduler sets `group["lr"]`): read them
#   at every `step()`.
# * A parameter whose `.grad` is `None` is not changed and gets no state; `step()` never changes a `.grad`.
#   Only `None` skips a parameter: one that has a `.grad` is stepped even if it does not require grad.
# * Keep the momentum buffer in `self.state[p]["momentum_buffer"]` (made only when `momentum` is not 0; while a
#   group's `momentum` is set to 0 later, its buffers are neither used nor changed nor dropped, as in
#   `torch.optim.SGD`), as a tensor of `p`'s shape, dtype and device (as `torch.optim.SGD` keeps it), so that
#   `state_dict()` can be loaded into a fresh `MomentumSGD` or into `torch.optim.SGD`, and the other way round,
#   and training continues exactly.
# * Raise `ValueError` for a negative `lr`, `momentum` or `weight_decay`, and for `nesterov=True` unless
#   `momentum > 0` and `dampening == 0`.

# %% [solution] id=sgd_impl
class MomentumSGD(torch.optim.Optimizer):
    """SGD with momentum, dampening, Nesterov and (L2) weight decay, as torch.optim.SGD."""

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        ### BEGIN SOLUTION
        if lr < 0 or momentum < 0 or weight_decay < 0:
            raise ValueError("lr, momentum and weight_decay must be >= 0")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("nesterov needs momentum > 0 and dampening == 0")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov)
        super().__init__(params, defaults)
        ### END SOLUTION

    @torch.no_grad()
    def step(self):
        ### BEGIN SOLUTION
        for group in self.param_groups:
            mu, tau, wd = group["momentum"], group["dampening"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                d = p.grad
                if wd != 0:
                    d = d.add(p, alpha=wd)
                if mu != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = d.clone()
                        state["momentum_buffer"] = buf
                    else:
                        buf.mul_(mu).add_(d, alpha=1 - tau)
                    d = d.add(buf, alpha=mu) if group["nesterov"] else buf
                p.add_(d, alpha=-group["lr"])
        ### END SOLUTION


# %% [tests] id=sgd_tests points=4
_a = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
_b = _a.detach().clone().requires_grad_()
_mine = MomentumSGD([_a], lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)
_ref = torch.optim.SGD([_b], lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)
for _step in range(3):
    for _p, _o in ((_a, _mine), (_b, _ref)):
        _o.zero_grad()
        (_p ** 3).sum().backward()
        _o.step()
expect_close(_a.detach(), _b.detach(), "the parameter after 3 steps of MomentumSGD vs torch.optim.SGD",
             atol=1e-12, rtol=1e-12)
expect("momentum_buffer" in _mine.state[_a], "the momentum buffer kept in state[p]['momentum_buffer']")
expect_raises(ValueError, lambda: MomentumSGD([_a], lr=0.1, nesterov=True), "MomentumSGD(..., nesterov=True) "
              "without momentum")
### BEGIN HIDDEN TESTS
run_hidden("00-03", "sgd", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### AdamW: two moments per parameter, and weight decay kept out of them
#
# Adam keeps two running averages per parameter $p$, both starting at zero: the mean of the gradients
# $m_t = \beta_1 m_{t-1} + (1-\beta_1)\, g$ and the mean of their squares $v_t = \beta_2 v_{t-1} + (1-\beta_2)\, g^2$
# (elementwise). Because both start at zero they are too small in the first steps, so Adam divides them by
# $1-\beta_1^t$ and $1-\beta_2^t$ (the *bias correction*), where $t$ counts the steps *this parameter* has taken,
# starting at 1. The step is $\eta\, \hat m_t / (\sqrt{\hat v_t} + \epsilon)$: $\epsilon$ is added *after* the square
# root, and it keeps the division finite where $v$ is tiny.
#
# Plain Adam with weight decay adds $\lambda p$ to the gradient, like SGD above, but then the division by
# $\sqrt{\hat v}$ rescales the decay differently for every weight. AdamW *decouples* it: before the Adam update it
# shrinks the weight directly, $p \leftarrow p - \eta\lambda\, p$, and the moments see only the gradient. One
# AdamW step for a parameter with gradient $g$ is therefore:
#
# 1. $t \leftarrow t + 1$;
# 2. $p \leftarrow p\,(1 - \eta\lambda)$;
# 3. $m \leftarrow \beta_1 m + (1-\beta_1)\, g$ and $v \leftarrow \beta_2 v + (1-\beta_2)\, g^2$;
# 4. $p \leftarrow p - \eta\, \dfrac{m / (1-\beta_1^t)}{\sqrt{v / (1-\beta_2^t)} + \epsilon}$.
#
# `torch.optim.AdamW` keeps $m$, $v$ and $t$ in `state[p]["exp_avg"]`, `state[p]["exp_avg_sq"]` and
# `state[p]["step"]`. As for SGD, "equal to torch" means equal to float64 rounding (relative 1e-12), not bit
# for bit: PyTorch writes these lines as fused in-place calls (`lerp_`, `addcmul_`, `addcdiv_`) whose last bit
# can differ from the same formula written with `*` and `+`, and asking for `torch.equal` would only test
# whether you copied those exact calls. Every mistake in the formulas (a missing correction, $t$ off by one,
# $\epsilon$ inside the root, the decay in the gradient) moves the result far more than 1e-12.

# %%
# Worked example: the first Adam step, from zero moments, with betas (0.9, 0.999).
_g = torch.tensor([0.5, -2.0, 1e-3], dtype=torch.float64)
_m1, _v1 = (1 - 0.9) * _g, (1 - 0.999) * _g ** 2
print("m_1 without correction:", _m1.tolist(), "  corrected:", (_m1 / (1 - 0.9 ** 1)).tolist())
# With the correction the first step is lr * g / (|g| + eps): every weight moves by about lr, whatever |g| is.
print("first step / lr:", ((_m1 / (1 - 0.9)) / ((_v1 / (1 - 0.999)).sqrt() + 1e-8)).tolist())

# %% [markdown]
# ### Exercise 3 · `ScratchAdamW` (3 points)
#
# Write `ScratchAdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2)` as a subclass of
# `torch.optim.Optimizer`, following the four lines above (without `amsgrad`, `maximize` and the other options).
# `params` is anything `torch.optim.AdamW` takes: a list of tensors, a one-shot iterator such as
# `model.parameters()`, or a list of group dicts; the parameters are real floating-point tensors (complex ones
# are not asked for).
#
# * After any number of `step()` calls, every parameter equals what `torch.optim.AdamW` with the same arguments
#   gives from the same start and the same gradients (inf and nan included), to float64 rounding (relative
#   1e-12), including several parameter groups with different hyperparameters, groups that leave some of them to
#   the defaults, and hyperparameters changed in `self.param_groups` between steps (by a scheduler, or by
#   `load_state_dict()`): read them at every `step()`.
# * A parameter whose `.grad` is `None` is not changed, gets no state and does not count the step;
#   `step()` never changes a `.grad`. Only `None` skips a parameter: one that has a `.grad` is stepped even if
#   it does not require grad.
# * `self.state[p]` holds `"exp_avg"`, `"exp_avg_sq"` and `"step"` with the values `torch.optim.AdamW` keeps
#   (the two moments as tensors of `p`'s shape, dtype and device; `"step"` as a number or a 0-dim tensor), so that `state_dict()` loaded into a fresh `ScratchAdamW`
#   continues exactly, whichever step it was saved after.
# * Float16 parameters included (their moments are float16 too, as above): a gradient of 256 or more squares past
#   float16's largest value, 65504, so never hold $g^2$ or $v / (1-\beta_2^t)$ in float16 (they become `inf` and the
#   weight stops moving). `torch.optim.AdamW` squares $g$ inside `addcmul_` (which computes in float32) and divides
#   $\sqrt{v}$ by $\sqrt{1-\beta_2^t}$; a float16 parameter must follow it to float16 rounding. It also folds
#   $1/(1-\beta_1^t)$ into the step size (a number), so $m / (1-\beta_1^t)$ is never held in float16, and it computes
#   $(1-\beta_2)\,g\,g$ in that order, so a float32 gradient of 2e19 (whose square passes float32's largest value)
#   still moves the weight as it does in torch.
# * Raise `ValueError` for a negative `lr`, `eps` or `weight_decay`, and for a beta outside `[0, 1)`.

# %% [solution] id=adamw_impl
class ScratchAdamW(torch.optim.Optimizer):
    """Adam with bias correction and decoupled weight decay, as torch.optim.AdamW."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        ### BEGIN SOLUTION
        if lr < 0 or eps < 0 or weight_decay < 0:
            raise ValueError("lr, eps and weight_decay must be >= 0")
        if not all(0.0 <= b < 1.0 for b in betas):
            raise ValueError("each beta must lie in [0, 1)")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))
        ### END SOLUTION

    @torch.no_grad()
    def step(self):
        ### BEGIN SOLUTION
        for group in self.param_groups:
            lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                g = p.grad
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                t = int(state["step"]) + 1
                state["step"] = t
                p.mul_(1 - lr * wd)
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.mul_(b1).add_(g, alpha=1 - b1)
                v.mul_(b2).addcmul_(g, g, value=1 - b2)
                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps
                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))
        ### END SOLUTION


# %% [tests] id=adamw_tests points=3
_a = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
_b = _a.detach().clone().requires_grad_()
_mine = ScratchAdamW([_a], lr=0.05, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)
_ref = torch.optim.AdamW([_b], lr=0.05, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, foreach=False)
for _step in range(3):
    for _p, _o in ((_a, _mine), (_b, _ref)):
        _o.zero_grad()
        (_p ** 3).sum().backward()
        _o.step()
expect_close(_a.detach(), _b.detach(), "the parameter after 3 steps of ScratchAdamW vs torch.optim.AdamW",
             atol=1e-12, rtol=1e-12)
expect(sorted(_mine.state[_a]) == ["exp_avg", "exp_avg_sq", "step"],
       "state[p] holds exactly 'exp_avg', 'exp_avg_sq' and 'step'")
expect_raises(ValueError, lambda: ScratchAdamW([_a], lr=0.1, betas=(1.0, 0.999)), "ScratchAdamW(..., betas=(1.0, "
              "0.999))")
### BEGIN HIDDEN TESTS
run_hidden("00-03", "adamw", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Warm-up, then cosine decay
#
# Early in training the weights are random and the gradients large and noisy; a full learning rate can throw
# the model somewhere it never recovers from (and Adam's second-moment estimate is still poor). A *warm-up*
# raises the rate linearly from `start_factor * base_lr` to `base_lr` over `warmup_steps` steps. After it, a
# *cosine decay* lowers it smoothly to `eta_min` at `total_steps`:
#
# $$\eta_t = \begin{cases} \eta_{\text{base}}\left(f_0 + (1 - f_0)\,\dfrac{t}{W}\right) & 0 \le t < W \\[2ex]
# \eta_{\min} + (\eta_{\text{base}} - \eta_{\min})\,\dfrac{1 + \cos\big(\pi (t - W)/(T - W)\big)}{2} & W \le t \le T
# \\[1ex] \eta_{\min} & t > T \end{cases}$$
#
# PyTorch builds the same curve by chaining two schedulers: `SequentialLR(opt, [LinearLR(opt, f0, 1.0, W),
# CosineAnnealingLR(opt, T - W, eta_min)], milestones=[W])`. Its schedulers update the rate *recursively*, from
# the previous value, which is why a resumed run must also restore the scheduler's `state_dict()`. A closed
# form of the step number, as below, cannot drift and resumes from the step number alone (use it with
# `LambdaLR`, which multiplies `base_lr` by a function of the step). Past `T`, `CosineAnnealingLR` would start
# rising again; our schedule holds at `eta_min`.

# %%
if run_demos():
    import matplotlib.pyplot as plt

    _p = [torch.zeros(1, requires_grad=True)]
    _o = torch.optim.SGD(_p, lr=0.1)
    _s = torch.optim.lr_scheduler.SequentialLR(
        _o, [torch.optim.lr_scheduler.LinearLR(_o, 0.1, 1.0, 10),
             torch.optim.lr_scheduler.CosineAnnealingLR(_o, 90, 0.001)], milestones=[10])
    lrs = []
    for _ in range(101):
        lrs.append(_o.param_groups[0]["lr"])
        _o.step()
        _s.step()
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.plot(lrs)
    ax.axvline(10, ls=":", color="gray")
    ax.set_xlabel("step")
    ax.set_ylabel("learning rate")
    ax.set_title("SequentialLR(LinearLR, CosineAnnealingLR): warm-up to step 10, then cosine")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 4 · `warmup_cosine_lr` (2 points)
#
# `warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0)` returns the
# learning rate (a Python float) for step number `step >= 0`, by the formula above.
#
# * For `0 <= step <= total_steps` it equals the rate `SequentialLR(LinearLR, CosineAnnealingLR)` (built as
#   shown above) gives after `step` scheduler steps, to rounding (relative 1e-9), including the boundaries
#   `step = warmup_steps` and `step = total_steps`.
# * With `warmup_steps = 0` there is no warm-up: the rate at step 0 is `base_lr` and the cosine runs from there.
# * For `step > total_steps` it returns `eta_min`.
# * You may assume `0 <= warmup_steps < total_steps`, `0 < start_factor <= 1` and `0 <= eta_min <= base_lr`.

# %% [solution] id=schedule_impl
def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    """The learning rate at `step`: linear warm-up, then cosine decay to eta_min at total_steps."""
    ### BEGIN SOLUTION
    if step < warmup_steps:
        return base_lr * (start_factor + (1.0 - start_factor) * step / warmup_steps)
    if step > total_steps:
        return float(eta_min)
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0
    ### END SOLUTION


# %% [tests] id=schedule_tests points=2
expect_close(warmup_cosine_lr(0, 0.1, 10, 100), 0.01, "warmup_cosine_lr(0, 0.1, 10, 100) (start_factor 0.1)")
expect_close(warmup_cosine_lr(10, 0.1, 10, 100), 0.1, "warmup_cosine_lr(10, 0.1, 10, 100) (end of warm-up)")
expect_close(warmup_cosine_lr(55, 0.1, 10, 100), 0.05, "warmup_cosine_lr(55, 0.1, 10, 100) (half-way down)")
expect_close(warmup_cosine_lr(100, 0.1, 10, 100, eta_min=0.001), 0.001, "warmup_cosine_lr at total_steps")
### BEGIN HIDDEN TESTS
run_hidden("00-03", "schedule", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Mixed precision: the loss scaler (taught, not graded)
#
# In float16 a gradient below about $6\cdot10^{-8}$ rounds to zero. `GradScaler` multiplies the loss by a large
# *scale* $S$ before `backward()`, so the gradients are $S$ times larger and survive; `unscale_` divides them by
# $S$ again before clipping or stepping. If any gradient came out `inf` or `nan`, the scale was too large:
# `scaler.step(opt)` then **skips** the optimizer step, and `update()` multiplies the scale by `backoff_factor`
# (0.5). After `growth_interval` steps in a row without overflow, `update()` multiplies the scale by
# `growth_factor` (2). The scale therefore hovers just below the largest value that does not overflow.
# `torch.amp.GradScaler("cpu")` works on the CPU too, which the demo uses: it injects an `inf` gradient at a
# few steps and plots the scale.

# %%
if run_demos():
    import matplotlib.pyplot as plt

    _w = torch.zeros(3, requires_grad=True)
    _o = torch.optim.SGD([_w], lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=5)
    scales, skipped = [], []
    for step in range(40):
        _o.zero_grad()
        scaler.scale((_w - 1.0).pow(2).sum()).backward()
        if step in (7, 8, 21, 30):
            _w.grad[0] = math.inf  # an overflow, as float16 would produce
        before = _w.detach().clone()
        scaler.step(_o)
        scaler.update()
        skipped.append(torch.equal(before, _w.detach()))
        scales.append(scaler.get_scale())
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.semilogy(scales, marker=".")
    ax.set_xlabel("step")
    ax.set_ylabel("loss scale")
    ax.set_title(f"GradScaler: halves on overflow, doubles after 5 clean steps (skipped: "
                 f"{[i for i, s in enumerate(skipped) if s]})", fontsize=9)
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## 5. Batches of sequences
#
# A `DataLoader` takes samples one at a time from a dataset and hands a list of them to its `collate_fn`, which
# must build one batch. The default stacks tensors, which fails when the samples are sequences of different
# lengths (sentences, audio clips, event logs). A padding collate function copies each sequence into a
# zero-filled (or `padding_value`-filled) tensor of the longest length, and returns the true lengths and a mask
# so that later layers can ignore the padding. `torch.nn.utils.rnn.pad_sequence` does the copying part.

# %%
_seqs = [torch.arange(3.0), torch.arange(5.0), torch.arange(1.0)]
print(torch.nn.utils.rnn.pad_sequence(_seqs, batch_first=True, padding_value=-1.0))

# %% [markdown]
# ### Exercise 5 · `pad_collate` (3 points)
#
# `pad_collate(samples, padding_value=0.0)` takes a list of `(sequence, label)` pairs. Each `sequence` is a
# tensor of shape `(L_i, *features)` (the same `features` shape and dtype for all samples; `L_i` may be 0 and
# the tensor need not be contiguous); each `label` is a Python int or a 0-dim integer tensor of any integer
# dtype. It returns a dict with
#
# * `"inputs"`: a new tensor of shape `(B, L_max, *features)` with the sequences' dtype and device, sample `i`
#   in row `i` at positions `0 .. L_i - 1` and `padding_value` everywhere else (a `padding_value` of `-0.0` pads
#   with `-0.0`, as `pad_sequence` does); it shares no memory with any sample, even for a batch of one, nor with
#   what an earlier call returned;
# * `"lengths"`: an int64 tensor of shape `(B,)` with the `L_i`;
# * `"mask"`: a bool tensor of shape `(B, L_max)`, True exactly at the real (not padded) positions;
# * `"labels"`: an int64 tensor of shape `(B,)`.
#
# `L_max` is the longest `L_i` (0 if all are empty). An empty list of samples raises `ValueError`. The samples
# are left unchanged.

# %% [solution] id=collate_impl
def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    ### BEGIN SOLUTION
    if len(samples) == 0:
        raise ValueError("pad_collate needs at least one sample")
    seqs = [s for s, _ in samples]
    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)
    longest = int(lengths.max())
    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)
    for i, s in enumerate(seqs):
        inputs[i, :s.shape[0]] = s
    mask = torch.arange(longest)[None, :] < lengths[:, None]
    labels = torch.tensor([int(y) for _, y in samples], dtype=torch.int64)
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
    ### END SOLUTION


# %% [tests] id=collate_tests points=3
_batch = pad_collate([(torch.ones(2, 3), 1), (torch.ones(4, 3), torch.tensor(0, dtype=torch.int32))], -1.0)
expect_equal(tuple(_batch["inputs"].shape), (2, 4, 3), "the shape of pad_collate(...)['inputs']")
expect_equal(_batch["inputs"][0, 2:].unique().tolist(), [-1.0], "the padded positions of the shorter sample")
expect_equal(_batch["lengths"].tolist(), [2, 4], "pad_collate(...)['lengths']")
expect_equal(_batch["mask"].tolist(), [[True, True, False, False], [True] * 4], "pad_collate(...)['mask']")
expect_equal(_batch["labels"].dtype, torch.int64, "the dtype of pad_collate(...)['labels']")
### BEGIN HIDDEN TESTS
run_hidden("00-03", "collate", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Two tools for speed (taught, not graded)
#
# `torch.compile(model)` traces the forward into a graph and hands it to a backend. The default backend,
# inductor, generates fused kernels (slow to compile, fast to run); `backend="aot_eager"` traces forward and
# backward but runs them with ordinary PyTorch kernels, a cheap way to check that a model compiles at all.
# Compiled and eager results agree to rounding, not bit for bit, because fused kernels add in another order.
# `torch.profiler` records every operator a step runs; its table, sorted by self CPU time (time spent in the
# operator itself, not in what it calls), tells you which
# operator to optimise first. The demo (about 30 seconds, most of it inductor's compilation) does both.

# %%
if run_demos():
    from torch.profiler import ProfilerActivity, profile

    _model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 10))
    _x = torch.randn(32, 64)
    eager = _model(_x)
    for backend in ("aot_eager", "inductor"):
        compiled = torch.compile(_model, backend=backend)
        print(f"{backend:>10}: max |compiled - eager| = {(compiled(_x) - eager).abs().max().item():.2e}")
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(20):
            _model(_x).sum().backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=8))

# %% [markdown]
# ## What to remember
#
# * Accumulated gradients equal the big batch's only when each micro-loss is weighted by its share of the
#   samples, `n_j / N`; `1 / k` is wrong whenever the last micro-batch is smaller.
# * An optimizer is a loop over `param_groups` and a dict of state per parameter; that state (momentum buffers,
#   Adam's moments, step counts) is part of a checkpoint, exactly like the weights.
# * A schedule written as a closed form of the step number resumes from the step alone; PyTorch's recursive
#   schedulers need their `state_dict()`.
# * Padding turns ragged samples into one tensor, and the lengths and mask say which entries are real.
