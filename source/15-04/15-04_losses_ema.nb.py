# %% [markdown]
# # 15-04 · Custom losses, running metrics, gradient clipping and EMA
#
# A training loop is more than `loss.backward(); optimizer.step()`. Around that core sit a handful of small
# utilities that every serious codebase re-implements: a loss that is not in `torch.nn`, a metric that has to
# be averaged over an epoch, a guard against exploding gradients, a smoothed copy of the weights for
# evaluation. Each of them is ten lines long, and each of them has a classic bug that does not crash: it just
# makes your numbers quietly wrong.
#
# In this notebook you write all of them from scratch and compare them with PyTorch's own versions.
#
# **You will build**
# 1. `label_smoothing_cross_entropy`: cross-entropy with label smoothing, stable for logits like `1000 * x`,
#    identical to `F.cross_entropy(..., label_smoothing=eps)`.
# 2. `nt_xent_loss`: the contrastive loss of SimCLR (NT-Xent / InfoNCE over two views).
# 3. `RunningMetrics`: loss, accuracy and a confusion matrix over an epoch, in constant memory, correct with
#    an uneven last batch.
# 4. `clip_grad_norm` and 5. `clip_grad_value`: the semantics of `torch.nn.utils.clip_grad_norm_` and
#    `clip_grad_value_`.
# 6. `EMA`: an exponential moving average of a model's weights that matches
#    `torch.optim.swa_utils.AveragedModel` with `get_ema_multi_avg_fn`.
#
# At the end, a small CIFAR-10 training run uses all six together.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run right away. When
# you submit, hidden checks test the same code much harder: random float64 inputs of several shapes, extreme
# values, edge cases, and comparisons with PyTorch's reference implementations. Heavy demos only run when you
# run the notebook yourself (`run_demos()` is False while grading). Keep the `def` and `class` lines of the
# skeletons as they are (the parameters' names, their order and their defaults): a hidden check compares them,
# and a parameter you add must come after them, with a default.
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

import copy
import math

import torch.nn as nn
import torch.nn.functional as F

_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. Cross-entropy, one level down
#
# For one sample with logits $z \in \mathbb{R}^C$ and true class $y$, cross-entropy is
# $-\log p_y$ with $p = \mathrm{softmax}(z)$. Written out,
#
# $$-\log p_y = -z_y + \log \sum_c e^{z_c} = -z_y + \operatorname{logsumexp}(z).$$
#
# The second form is the one to compute. Evaluating `softmax` first and then `log` has two failure modes:
#
# * **overflow**: `exp(1000.)` is `inf` in float32 and float64, and `inf / inf` is `nan`;
# * **underflow**: for a class far below the maximum, `exp(z_c - ...)` rounds to `0`, and `log(0) = -inf`.
#
# `logsumexp` avoids both with one shift: with $m = \max_c z_c$,
# $\operatorname{logsumexp}(z) = m + \log \sum_c e^{z_c - m}$. Every exponent is now $\le 0$ and the largest
# term is exactly 1, so the sum lies in $[1, C]$ and its log is harmless. `torch.logsumexp` and
# `F.log_softmax` do this shift for you (and their backward is stable too). Adding a constant to every logit
# does not change the softmax, so the shift is free.
#
# The cell below compares the naive route with the stable one on logits shifted by +100 and scaled by 1000.

# %%
def naive_ce(logits, target):
    p = logits.exp() / logits.exp().sum(dim=1, keepdim=True)
    return -p.gather(1, target[:, None]).log().mean()


def stable_ce(logits, target):
    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    return -log_p.gather(1, target[:, None]).mean()


_z = torch.randn(4, 10)
_y = torch.randint(0, 10, (4,))
for label, z in [("plain", _z), ("+100", _z + 100), ("x1000", _z * 1000)]:
    print(f"{label:>6}: naive {naive_ce(z, _y).item():>10.4f}   stable {stable_ce(z, _y).item():>10.4f}   "
          f"F.cross_entropy {F.cross_entropy(z, _y).item():>10.4f}")

# %% [markdown]
# ### Label smoothing
#
# Plain cross-entropy is minimised by driving $p_y \to 1$, which needs $z_y - z_c \to \infty$: the network is
# rewarded for becoming ever more confident, even on mislabeled or ambiguous images. Label smoothing replaces
# the one-hot target with a mixture of the one-hot vector and the uniform distribution:
#
# $$q_c = (1-\varepsilon)\,[c = y] + \frac{\varepsilon}{C}.$$
#
# The loss is the cross-entropy against $q$, $-\sum_c q_c \log p_c$, which splits into two familiar pieces:
#
# $$\ell = (1-\varepsilon)\,\underbrace{(-\log p_y)}_{\text{usual NLL}} \;+\; \varepsilon\,
# \underbrace{\frac{1}{C}\sum_c (-\log p_c)}_{\text{mean NLL over all classes}}.$$
#
# Two details to get exactly right if you want to match `F.cross_entropy(logits, y, label_smoothing=eps)`:
#
# * PyTorch spreads $\varepsilon/C$ over **all** $C$ classes, the true one included (some papers spread
#   $\varepsilon/(C-1)$ over the wrong classes only: a different loss).
# * With `reduction="mean"` the per-sample losses are averaged over the **batch**, not over the $N\times C$
#   entries.
#
# The smoothed loss has a finite minimiser: the optimal logit gap between the true class and the others is
# $\log\big((1-\varepsilon + \varepsilon/C)/(\varepsilon/C)\big)$, so the logits stop growing. The plot (a demo)
# shows the loss as a function of that gap.
#
# *Focal loss*, another per-sample reweighting of cross-entropy that focuses training on hard examples, was
# built in module 5-04; it is not repeated here. Everything below (stable log-probabilities, reductions,
# matching PyTorch) applies to it unchanged.

# %%
if run_demos():
    import matplotlib.pyplot as plt

    gaps = torch.linspace(0, 12, 200)
    C = 10
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for eps in (0.0, 0.1, 0.3):
        logits = torch.zeros(200, C)
        logits[:, 0] = gaps
        losses = F.cross_entropy(logits, torch.zeros(200, dtype=torch.long), label_smoothing=eps, reduction="none")
        ax.plot(gaps, losses, label=f"eps = {eps}")
        if eps > 0:
            best = math.log((1 - eps + eps / C) / (eps / C))
            ax.axvline(best, ls=":", color=ax.lines[-1].get_color())
    ax.set_xlabel("logit of the true class minus the others")
    ax.set_ylabel("loss")
    ax.set_title("Label smoothing puts the minimum at a finite margin (dotted)")
    ax.legend()
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 1: label-smoothing cross-entropy (4 points)
#
# Implement it from log-probabilities (`torch.logsumexp` or `F.log_softmax`); do **not** call
# `F.cross_entropy` or `nn.CrossEntropyLoss` (nor hand the loss to `torch.cond` or an operator of your own
# `torch.library` registry, whose inside the grader cannot see). It must agree with `F.cross_entropy(..., label_smoothing=...)`
# for every `smoothing` in `[0, 1]` and every reduction, stay finite for logits like `x + 100` or `1000 * x`,
# and be differentiable twice, as `F.cross_entropy` is (autograd through your operations gives the gradient
# and the gradient of the gradient: no hand-written backward). Like `F.cross_entropy`, it
# returns the logits' dtype, leaves its inputs unchanged and runs on CPU or GPU (where the logits are).

# %% [solution] id=label_smoothing_impl
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    """Cross-entropy with label smoothing, as F.cross_entropy(logits, target, label_smoothing=smoothing).

    logits: float tensor (N, C); target: long tensor (N,) of class indices in [0, C).
    smoothing: eps in [0, 1]; the target distribution is (1 - eps) * one_hot + eps / C.
    reduction: "mean" (average over the N samples), "sum" or "none" (a tensor of shape (N,)).
    Raises ValueError for smoothing outside [0, 1] or an unknown reduction.
    """
    ### BEGIN SOLUTION
    if not 0.0 <= smoothing <= 1.0:
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"unknown reduction {reduction!r}; use 'mean', 'sum' or 'none'")
    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)
    uniform = -log_p.mean(dim=1)
    loss = (1.0 - smoothing) * nll + smoothing * uniform
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
    ### END SOLUTION


# %% [tests] id=label_smoothing_tests points=4
_l = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
_t = torch.tensor([0, 2])
expect_close(label_smoothing_cross_entropy(_l, _t), F.cross_entropy(_l, _t),
             "label_smoothing_cross_entropy(logits, target) with smoothing 0", atol=1e-5)
expect_close(label_smoothing_cross_entropy(_l, _t, 0.1), F.cross_entropy(_l, _t, label_smoothing=0.1),
             "label_smoothing_cross_entropy(logits, target, 0.1)", atol=1e-5)
expect_equal(tuple(label_smoothing_cross_entropy(_l, _t, 0.1, reduction="none").shape), (2,),
             "the shape with reduction='none' (one loss per sample)")
expect(torch.isfinite(label_smoothing_cross_entropy(_l * 1000, _t, 0.1)).all(),
       "a finite loss for logits scaled by 1000 (compute it stably, with log_softmax)")
### BEGIN HIDDEN TESTS
run_hidden("15-04", "label_smoothing", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. A contrastive loss: NT-Xent
#
# Contrastive learning trains an encoder without labels. Each image is augmented twice; the two views form a
# *positive pair*, and every other image in the batch serves as a *negative*. SimCLR's loss, NT-Xent
# (normalised temperature-scaled cross-entropy, a form of InfoNCE), turns this into a classification problem:
#
# 1. Stack the two views' embeddings, $z = [z^{(1)}; z^{(2)}] \in \mathbb{R}^{2N \times D}$, and L2-normalise
#    each row, so that a dot product is a cosine similarity in $[-1, 1]$.
# 2. Compute all pairwise similarities divided by a temperature $\tau$: $S = z z^\top / \tau$, a
#    $2N \times 2N$ matrix.
# 3. Row $i$ is the logit vector of anchor $i$. Its "correct class" is its partner: column $i + N$ for
#    $i < N$, column $i - N$ otherwise. Its similarity with **itself** (the diagonal, always $1/\tau$, the
#    largest entry) is not a candidate: set it to $-\infty$ before the softmax, so it contributes
#    $e^{-\infty} = 0$ (setting it to $0$ would leave a term $e^0 = 1$ in the denominator).
# 4. The loss is the cross-entropy of each row against its partner, averaged over all $2N$ anchors:
#    $\ell = \frac{1}{2N}\sum_i \big(-S_{i,\,\mathrm{pos}(i)} + \operatorname{logsumexp}_{j \ne i} S_{ij}\big)$.
#
# The temperature sets how sharply the softmax concentrates on the hardest negatives. Typical values are
# 0.05 to 0.5, which means logits up to $\pm 20$; with $\tau = 0.001$ they reach $\pm 1000$, so the same
# logsumexp care as in section 1 is needed. Because of the normalisation, the loss does not depend on the
# length of the embeddings, only on their directions. With a single pair ($N = 1$) every anchor has exactly
# one candidate, its partner, and the loss is exactly 0: a handy sanity check for the masking.

# %% [markdown]
# ### Exercise 2: NT-Xent (4 points)
#
# You may reuse logsumexp, `F.log_softmax`, `F.normalize` and, if you like, `F.cross_entropy` here. Handle
# any `N >= 1`, any embedding size and any positive temperature, on CPU or GPU.

# %% [solution] id=nt_xent_impl
def nt_xent_loss(z1, z2, temperature=0.5):
    """NT-Xent (SimCLR) loss for two views.

    z1, z2: float tensors (N, D); row i of z1 and row i of z2 are the two views of sample i.
    Rows are L2-normalised, similarities divided by `temperature`, each of the 2N embeddings is
    classified against the other 2N - 1 (never itself) with its partner as the target, and the
    2N cross-entropies are averaged. Returns a 0-dim tensor in the dtype of z1 and z2.
    """
    ### BEGIN SOLUTION
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = (z @ z.T) / temperature
    eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)
    sim = sim.masked_fill(eye, float("-inf"))
    rows = torch.arange(2 * n, device=z.device)
    partner = (rows + n) % (2 * n)
    log_prob_pos = sim[rows, partner] - torch.logsumexp(sim, dim=1)
    return -log_prob_pos.mean()
    ### END SOLUTION


# %% [tests] id=nt_xent_tests points=4
_a = torch.randn(4, 8)
expect_equal(tuple(nt_xent_loss(_a, _a.clone()).shape), (), "nt_xent_loss(a, b) returns a scalar")
expect(nt_xent_loss(_a, _a + 0.01).item() < nt_xent_loss(_a, torch.randn(4, 8)).item(),
       "matching pairs give a lower loss than random pairs")
expect_close(nt_xent_loss(_a[:1], torch.randn(1, 8)), torch.tensor(0.0),
             "nt_xent_loss for one pair (only the positive is left, so the loss is 0)", atol=1e-5)
expect(torch.isfinite(nt_xent_loss(_a, _a + 0.1, temperature=0.001)).all(),
       "a finite loss at temperature 0.001 (compute it stably)")
### BEGIN HIDDEN TESTS
run_hidden("15-04", "nt_xent", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Demo: what NT-Xent sees on CIFAR-10
#
# Below, two random augmentations (crop after padding, horizontal flip, brightness jitter) of 16 CIFAR-10
# images go through a small convolutional encoder. At initialisation the encoder maps everything to nearly
# the same direction (the whole matrix is close to 1: a collapsed representation, which NT-Xent's negatives
# push apart). After some steps the embeddings spread out; the partner entries (the two off-diagonal bands at
# offset 16) stay high while unrelated images move apart. With the synthetic stand-in, images of the same
# class are near-copies of one prototype, so same-class pairs light up as well.

# %%
def augment(x, gen=None):
    """Random crop (pad 4), horizontal flip and brightness jitter for a batch of images (B, 3, 32, 32)."""
    b = x.shape[0]
    padded = F.pad(x, (4, 4, 4, 4), mode="reflect")
    i, j = torch.randint(0, 9, (2,), generator=gen).tolist()
    out = padded[:, :, i:i + 32, j:j + 32]
    flip = torch.rand(b, generator=gen) < 0.5
    out = torch.where(flip[:, None, None, None], out.flip(-1), out)
    return (out * (0.8 + 0.4 * torch.rand(b, 1, 1, 1, generator=gen))).clamp(0, 1)


def small_encoder(dim=32):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(32, dim))


if run_demos():
    import matplotlib.pyplot as plt
    from course.student.data import load
    from tqdm.auto import tqdm

    cifar = load("cifar10", train=True)
    g = torch.Generator().manual_seed(1)
    enc = small_encoder().to(DEVICE)
    opt = torch.optim.Adam(enc.parameters(), lr=3e-3)
    show = torch.stack([cifar[i][0] for i in range(16)])

    def sim_matrix():
        with torch.no_grad():
            v1, v2 = augment(show, g).to(DEVICE), augment(show, g).to(DEVICE)
            z = F.normalize(torch.cat([enc(v1), enc(v2)]), dim=1)
            return (z @ z.T).cpu()

    before = sim_matrix()
    losses = []
    for step in tqdm(range(100), desc="NT-Xent steps"):
        idx = torch.randint(0, len(cifar), (64,), generator=g)
        x = torch.stack([cifar[int(k)][0] for k in idx])
        loss = nt_xent_loss(enc(augment(x, g).to(DEVICE)), enc(augment(x, g).to(DEVICE)), temperature=0.2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    after = sim_matrix()

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
    for ax, m, title in ((axes[0], before, "cosine similarity before"), (axes[1], after, "after training")):
        im = ax.imshow(m, vmin=-1, vmax=1, cmap="RdBu_r")
        ax.set_title(title)
    fig.colorbar(im, ax=axes[:2].tolist(), shrink=0.8)
    axes[2].plot(losses)
    axes[2].axhline(math.log(2 * 64 - 1), ls=":", color="gray", label="log(2N - 1): chance")
    axes[2].set_xlabel("step")
    axes[2].set_title("NT-Xent loss (N = 64, tau = 0.2)")
    axes[2].legend()
    plt.show()

# %% [markdown]
# ## 3. Metrics over an epoch, in constant memory
#
# During an epoch you see the data in batches, and you want one number at the end: the mean loss per sample,
# the accuracy, perhaps a confusion matrix. Two tempting implementations are wrong:
#
# * **Storing everything** (`self.preds.append(logits)`) and concatenating at the end works, but its memory
#   grows with the data set: on ImageNet-sized runs, or per-pixel outputs, that is gigabytes. Worse, if the
#   stored tensors still carry `grad_fn`, each one keeps its batch's whole autograd graph alive.
# * **Averaging batch means** is wrong whenever batches differ in size, and the last batch usually does
#   (50 000 images in batches of 128 leave a last batch of 80). Each batch's mean loss must be weighted by its
#   number of samples: keep `sum(mean_b * n_b)` and `sum(n_b)`.
#
# The right state is a fixed set of **sufficient statistics**: a running sum of per-sample losses, a sample
# count, and a $C \times C$ matrix of counts (rows: true class, columns: predicted class), from which
# accuracy (its trace over its total) and per-class recall follow. Counting into a confusion matrix needs no
# Python loop: encode each (true, predicted) pair as the single index `true * C + pred` and use
# `torch.bincount(..., minlength=C * C)`. Converting losses with `.item()` / `float(...)` both detaches them
# and moves them off the GPU.
#
# The cell below shows how far the mean of batch means can drift with one small, unlucky last batch.

# %%
_batch_sizes = [128, 128, 128, 16]
_batch_means = [0.50, 0.52, 0.48, 2.10]   # the small last batch happens to be hard
_mean_of_means = sum(_batch_means) / len(_batch_means)
_weighted = sum(m * n for m, n in zip(_batch_means, _batch_sizes)) / sum(_batch_sizes)
print(f"mean of batch means: {_mean_of_means:.4f}   per-sample mean: {_weighted:.4f}")

# %% [markdown]
# ### Exercise 3: `RunningMetrics` (4 points)
#
# * `update(loss, logits, targets)`: `loss` is the batch's **mean** loss (a Python float or a 0-dim tensor,
#   possibly with a `grad_fn`), `logits` has shape `(B, C)`, `targets` shape `(B,)` (int64 class indices in
#   `[0, C)`, as `F.cross_entropy` takes them; `B` may be 0: an empty batch adds no sample, and its `loss`,
#   which `F.cross_entropy` gives as `nan` for no samples, counts for nothing). Predictions are
#   `logits.argmax(dim=1)`. Store nothing that grows with the number of updates, and nothing attached to an
#   autograd graph.
# * `compute()` returns `{"loss": float, "accuracy": float, "confusion": LongTensor (C, C)}`, where loss is
#   the mean over all samples seen, accuracy a fraction in `[0, 1]`, and `confusion[i, j]` counts samples of
#   true class `i` predicted as `j`. With no samples yet, loss and accuracy are `nan` and the matrix is zeros.
# * `reset()` starts over. Separate instances must never share state. A dict returned by `compute()` is a
#   snapshot: later updates do not change it.

# %% [solution] id=running_metrics_impl
class RunningMetrics:
    """Per-sample mean loss, accuracy and confusion matrix over many batches, in O(C^2) memory."""

    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        """Forget everything seen so far."""
        ### BEGIN SOLUTION
        self._loss_sum = 0.0
        self._count = 0
        self._confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)
        ### END SOLUTION

    def update(self, loss, logits, targets):
        """Add one batch: its mean loss, its logits (B, C) and its targets (B,)."""
        ### BEGIN SOLUTION
        n = targets.numel()
        if n == 0:  # no sample: nothing to add (the mean loss of no samples is nan)
            return
        self._loss_sum += float(loss) * n
        self._count += n
        c = self.num_classes
        with torch.no_grad():
            pred = logits.argmax(dim=1).cpu()
            pairs = targets.cpu().long() * c + pred
            self._confusion += torch.bincount(pairs, minlength=c * c).view(c, c)
        ### END SOLUTION

    def compute(self):
        """{"loss": float, "accuracy": float, "confusion": LongTensor (C, C)}; nan when empty."""
        ### BEGIN SOLUTION
        if self._count == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self._confusion.clone()}
        correct = int(self._confusion.diagonal().sum())
        return {"loss": self._loss_sum / self._count, "accuracy": correct / self._count,
                "confusion": self._confusion.clone()}
        ### END SOLUTION


# %% [tests] id=running_metrics_tests points=4
_m = RunningMetrics(3)
_m.update(torch.tensor(1.0), torch.tensor([[5.0, 0, 0], [0, 5.0, 0]]), torch.tensor([0, 2]))
_m.update(4.0, torch.tensor([[0.0, 0, 5.0]]), torch.tensor([2]))
_r = _m.compute()
expect_close(torch.tensor(float(_r["loss"])), torch.tensor(2.0),
             "compute()['loss']: (1.0 * 2 samples + 4.0 * 1 sample) / 3 samples", atol=1e-5)
expect_close(torch.tensor(float(_r["accuracy"])), torch.tensor(2 / 3), "compute()['accuracy']", atol=1e-5)
expect_equal(torch.as_tensor(_r["confusion"]).tolist(), [[1, 0, 0], [0, 0, 0], [0, 1, 1]],
             "compute()['confusion'] (rows: true class, columns: predicted class)")
_m.reset()
expect(math.isnan(float(_m.compute()["loss"])), "after reset(), compute()['loss'] is nan (no samples yet)")
### BEGIN HIDDEN TESTS
run_hidden("15-04", "running_metrics", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Gradient clipping
#
# A single bad batch can produce a gradient orders of magnitude larger than usual, and one SGD step with it
# can undo hours of training. Clipping bounds the step. There are two flavours.
#
# **Clipping by global norm** (`torch.nn.utils.clip_grad_norm_`). Treat all gradients of all parameters as
# one long vector $g$ and compute its norm,
# $\|g\| = \big\|(\|g_1\|, \|g_2\|, \dots)\big\|$ (the norm of the per-tensor norms, which for the p-norm
# equals the norm of the concatenation). To bound it by `max_norm`, scale **every** gradient by the same
# factor, always (there is no `if norm > max_norm`: the factor is 1 well below `max_norm`, and already just
# below 1 when the norm equals it):
#
# $$\text{coef} = \min\!\Big(1,\ \frac{\mathrm{max\_norm}}{\|g\| + 10^{-6}}\Big), \qquad g_i \leftarrow \text{coef}\cdot g_i .$$
#
# Because all gradients share one factor, the update direction is unchanged; only its length is bounded. The
# details that PyTorch's version gets right and hand-written versions often miss:
#
# * the factor is capped at 1: small gradients are never scaled **up**;
# * it is one global factor, not one per parameter (per-parameter clipping changes the direction);
# * parameters whose `.grad` is `None` (frozen layers, unused branches) are skipped, not an error;
# * `parameters` is often a **generator** (`model.parameters()`), which can be iterated only once: turn it
#   into a list first, or the second loop (the scaling) silently does nothing;
# * the function returns the total norm measured **before** clipping: that is the number worth logging, since
#   the clipped norm is just `min(norm, max_norm)`;
# * `norm_type=float("inf")` means the largest absolute entry, $\max_i \max |g_i|$;
# * the `1e-6` keeps the division finite when all gradients are zero.
#
# **Clipping by value** (`clip_grad_value_`) clamps every gradient entry into `[-clip_value, clip_value]`. It
# is cheaper and bounds each coordinate, but it changes the direction of the update. The next cell measures
# by how much, for a gradient with a few large coordinates.

# %%
_g = torch.randn(1000)
_g[:5] *= 50                                     # a few exploding coordinates
_by_norm = _g * min(1.0, 1.0 / (_g.norm().item() + 1e-6))
_by_value = _g.clamp(-0.5, 0.5)
print(f"angle to the raw gradient: norm-clipped {math.degrees(math.acos(min(1.0, F.cosine_similarity(_g, _by_norm, dim=0).item()))):.1f} deg, "
      f"value-clipped {math.degrees(math.acos(F.cosine_similarity(_g, _by_value, dim=0).item())):.1f} deg")

# %% [markdown]
# ### Exercise 4: `clip_grad_norm` (4 points)
#
# Same semantics as `torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type)`: `parameters` is an
# iterable of tensors (possibly a generator) or a single tensor, `norm_type` a non-zero number (`inf` the
# largest absolute entry, `-inf` the smallest, as in `torch.linalg.vector_norm`) or the string `'inf'`
# (as `clip_grad_norm_` accepts it); scale the existing `.grad` tensors in place
# (under `torch.no_grad()`, or on `.grad` directly, which never requires grad); return the pre-clip total norm
# as a 0-dim tensor (a Python float is also accepted). With no gradients at all, return `0` and change nothing.
# It runs where the gradients are (CPU or GPU): build no tensor on another device. The point is to write it
# yourself: do not call `torch.nn.utils.clip_grad_norm_` or its two halves `get_total_norm` and
# `clip_grads_with_norm_`; the grader compares your function with `clip_grad_norm_`.

# %% [solution] id=clip_norm_impl
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    """Scale all .grad tensors by min(1, max_norm / (total_norm + 1e-6)); return the pre-clip total norm."""
    ### BEGIN SOLUTION
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    norm_type = float(norm_type)
    if norm_type == math.inf:
        per_tensor = [g.detach().abs().max() for g in grads]
        total = torch.stack([t.to(grads[0].device) for t in per_tensor]).max()
    else:
        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]
        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef.to(g.device, g.dtype))
    return total
    ### END SOLUTION


# %% [tests] id=clip_norm_tests points=4
_p = torch.zeros(2, requires_grad=True)
_p.grad = torch.tensor([3.0, 4.0])
_q = torch.zeros(1, requires_grad=True)            # no .grad: skipped
_n = clip_grad_norm((x for x in [_p, _q]), 1.0)
expect_close(torch.tensor(float(_n)), torch.tensor(5.0), "clip_grad_norm returns the total norm BEFORE clipping",
             atol=1e-5)
expect_close(_p.grad, torch.tensor([0.6, 0.8]), "p.grad after clipping [3, 4] to norm 1", atol=1e-5)
_p.grad = torch.tensor([0.3, 0.4])
clip_grad_norm([_p], 1.0)
expect_close(_p.grad, torch.tensor([0.3, 0.4]), "p.grad below max_norm (left unchanged)")
### BEGIN HIDDEN TESTS
run_hidden("15-04", "clip_grad_norm", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Exercise 5: `clip_grad_value` (2 points)
#
# Same semantics as `torch.nn.utils.clip_grad_value_(parameters, clip_value)`: clamp each existing `.grad`
# in place into `[-clip_value, clip_value]`, skip parameters without `.grad`, accept a generator or a single
# tensor, return `None`. It runs where the gradients are (CPU or GPU).

# %% [solution] id=clip_value_impl
def clip_grad_value(parameters, clip_value):
    """Clamp every existing .grad into [-clip_value, clip_value], in place."""
    ### BEGIN SOLUTION
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in parameters:
        if p.grad is not None:
            p.grad.detach().clamp_(min=-clip_value, max=clip_value)
    ### END SOLUTION


# %% [tests] id=clip_value_tests points=2
_p = torch.zeros(3, requires_grad=True)
_p.grad = torch.tensor([-2.0, 0.1, 5.0])
clip_grad_value([_p, torch.zeros(1, requires_grad=True)], 1.0)
expect_equal(_p.grad, torch.tensor([-1.0, 0.1, 1.0]), "p.grad after clip_grad_value(params, 1.0)")
### BEGIN HIDDEN TESTS
run_hidden("15-04", "clip_grad_value", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. An exponential moving average of the weights
#
# The weights at the last step of SGD are a noisy sample: they jump around a minimum with every mini-batch. An
# exponential moving average (EMA) of the weights smooths that noise out and usually evaluates better than the
# live model, for free. After each optimizer step,
#
# $$\theta^{\text{EMA}} \leftarrow d\,\theta^{\text{EMA}} + (1 - d)\,\theta, \qquad 0 \le d \le 1.$$
#
# The **decay** $d$ is the weight of the *old average*; $1/(1-d)$ is roughly the number of recent steps it
# remembers (0.999 is about a thousand steps). The same update is `ema.lerp_(theta, 1 - d)`.
#
# PyTorch ships this as `torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(d))`.
# Its exact semantics are what you implement:
#
# * **A private copy.** The averaged model is a `copy.deepcopy` of the live model. Storing a reference, or
#   assigning `ema_param.data = param.data`, makes the "average" share memory with the live weights, and
#   every optimizer step silently overwrites it.
# * **The first update copies.** `update_parameters` counts its calls; on the first call it copies the live
#   weights, and only later calls blend. The weights at construction time never enter the average.
# * **No autograd.** The update is bookkeeping, not part of the model's computation. Run it under
#   `torch.no_grad()`. Otherwise `ema = d * ema + (1 - d) * param` records a graph node every step, each one
#   pointing at the previous: memory grows without bound (and in-place updates of a tensor that requires grad
#   raise an error).
# * **Buffers are a decision.** BatchNorm's `running_mean` / `running_var` are not trained by gradients but
#   they are part of the model. `AveragedModel(use_buffers=False)` (the default) copies buffers from the live
#   model at every update; `use_buffers=True` averages them with the parameters. (A third option, recomputing
#   the statistics for the averaged weights with `swa_utils.update_bn`, is exact but costs a pass over data.)
#   Integer buffers such as `num_batches_tracked` are counters, not estimates; the next cell shows that
#   `AveragedModel(use_buffers=True)` pushes them through the float formula and truncates them. Your EMA
#   copies them instead.

# %%
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

if run_demos():  # about 0.2 s: shown to you, skipped when grading
    _net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    _avg = AveragedModel(_net, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
    for _ in range(5):
        _net(torch.randn(8, 3))   # a train-mode forward updates the BatchNorm statistics
        _avg.update_parameters(_net)
    print("live num_batches_tracked:", _net[1].num_batches_tracked.item(),
          "  AveragedModel(use_buffers=True):", _avg.module[1].num_batches_tracked.item())

# %% [markdown]
# ### Exercise 6: `EMA` (5 points)
#
# * `EMA(model, decay=0.999, average_buffers=False)` keeps a deep copy of `model` in `self.module` (an
#   `nn.Module` of the same architecture, sharing no memory with `model`). Its parameters should not require
#   gradients. A `decay` outside `[0, 1]` raises `ValueError`.
# * `update(model)`: the first call copies `model`'s parameters and buffers into `self.module`; every later
#   call sets each parameter to `decay * ema + (1 - decay) * live`, in whatever memory layout it is stored
#   (a channels_last or transposed weight included). Buffers: with `average_buffers=False` copy
#   every buffer from `model`; with `average_buffers=True` average floating-point buffers like parameters
#   (after the first update) and copy integer buffers. "Every buffer" means all of `model.buffers()`, those
#   registered with `persistent=False` included (`state_dict()` leaves them out). Build no autograd graph and
#   never modify `model`.
# * After `k` updates, `self.module`'s parameters (and buffers) equal those of
#   `AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=average_buffers)` after `k`
#   calls of `update_parameters` (except integer buffers, as explained above).
# * The point is to write the update yourself: do not use `AveragedModel` or the functions
#   `get_ema_multi_avg_fn` and `get_ema_avg_fn` return; the grader compares your EMA with `AveragedModel`.

# %% [solution] id=ema_impl
class EMA:
    """Exponential moving average of a model's weights, kept in `self.module`."""

    def __init__(self, model, decay=0.999, average_buffers=False):
        ### BEGIN SOLUTION
        if not 0.0 <= decay <= 1.0:
            raise ValueError(f"decay must be in [0, 1], got {decay}")
        self.decay = float(decay)
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.num_updates = 0
        ### END SOLUTION

    def update(self, model):
        """Fold the live model's current weights into the average."""
        ### BEGIN SOLUTION
        first = self.num_updates == 0
        with torch.no_grad():
            for ema_p, p in zip(self.module.parameters(), model.parameters()):
                if first:
                    ema_p.copy_(p)
                else:
                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)
            for ema_b, b in zip(self.module.buffers(), model.buffers()):
                if self.average_buffers and not first and ema_b.is_floating_point():
                    ema_b.lerp_(b.to(ema_b.device), 1.0 - self.decay)
                else:
                    ema_b.copy_(b)
        self.num_updates += 1
        ### END SOLUTION


# %% [tests] id=ema_tests points=5
_net = nn.Linear(2, 1)
_ema = EMA(_net, decay=0.5)
_ema.update(_net)
expect_close(_ema.module.weight, _net.weight, "the EMA weights after the first update (a copy)")
with torch.no_grad():
    _net.weight.add_(1.0)
_ema.update(_net)
expect_close(_ema.module.weight, _net.weight - 0.5, "the EMA weights after a second update (0.5 * old + 0.5 * new)")
expect(_ema.module.weight.data_ptr() != _net.weight.data_ptr(), "the EMA keeps its own copy of the weights")
expect(_ema.module.weight.grad_fn is None, "the EMA weights are not part of an autograd graph")
### BEGIN HIDDEN TESTS
run_hidden("15-04", "ema", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Everything together: a small CIFAR-10 run
#
# The demo trains a small CNN on CIFAR-10 (or its synthetic stand-in) with your utilities:
#
# * `label_smoothing_cross_entropy(..., smoothing=0.1)` as the training loss;
# * `clip_grad_norm(model.parameters(), 1.0)`, logging the pre-clip norm it returns;
# * `EMA(model, decay=0.98)` updated after every optimizer step (a short run needs a short memory; 0.999 is
#   typical for long runs), with `average_buffers=False` so the EMA model uses the live BatchNorm statistics;
# * `RunningMetrics` for the training epoch and for evaluating both the live and the EMA model.
#
# On real CIFAR-10, expect the EMA model's test loss to be smoother from epoch to epoch than the live model's,
# and the gradient norm to be clipped mostly early in training. The synthetic stand-in is so easy that both
# models reach nearly 100% test accuracy within an epoch; the plots of the gradient norm are still
# informative. On a CPU this takes a few minutes.

# %%
def small_cnn():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 8 * 8, 10))


def evaluate(model, loader, device):
    metrics = RunningMetrics(10)
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            metrics.update(F.cross_entropy(logits, y), logits, y)
    return metrics.compute()


if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader, Subset
    from course.student.data import load
    from tqdm.auto import tqdm

    torch.manual_seed(0)
    train_set = load("cifar10", train=True)
    test_set = load("cifar10", train=False)
    train_set = Subset(train_set, range(min(6000, len(train_set))))
    test_set = Subset(test_set, range(min(1000, len(test_set))))
    train_loader = DataLoader(train_set, batch_size=100, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=250)

    model = small_cnn().to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ema = EMA(model, decay=0.98)
    history = {"grad_norm": [], "train_loss": [], "live_test": [], "ema_test": [], "live_acc": [], "ema_acc": []}
    epochs = 3
    for epoch in range(epochs):
        model.train()
        train_metrics = RunningMetrics(10)
        for x, y in tqdm(train_loader, desc=f"epoch {epoch + 1}/{epochs}", leave=False):
            x, y = x.to(DEVICE), y.to(DEVICE)
            logits = model(x)
            loss = label_smoothing_cross_entropy(logits, y, smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            history["grad_norm"].append(float(clip_grad_norm(model.parameters(), 1.0)))
            opt.step()
            ema.update(model)
            train_metrics.update(loss, logits, y)
        live, averaged = evaluate(model, test_loader, DEVICE), evaluate(ema.module, test_loader, DEVICE)
        history["train_loss"].append(train_metrics.compute()["loss"])
        for key, res in (("live", live), ("ema", averaged)):
            history[f"{key}_test"].append(res["loss"])
            history[f"{key}_acc"].append(res["accuracy"])
        print(f"epoch {epoch + 1}: train loss {history['train_loss'][-1]:.3f} | test accuracy live "
              f"{live['accuracy']:.3f}, EMA {averaged['accuracy']:.3f}")

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.5))
    axes[0].plot(history["grad_norm"], lw=0.8)
    axes[0].axhline(1.0, color="red", ls=":", label="max_norm")
    axes[0].set_yscale("log")
    axes[0].set_title("pre-clip gradient norm per step")
    axes[0].legend()
    ep = range(1, epochs + 1)
    axes[1].plot(ep, history["live_test"], "o-", label="live model")
    axes[1].plot(ep, history["ema_test"], "s-", label="EMA model")
    axes[1].set_title("test loss (plain cross-entropy)")
    axes[1].legend()
    conf = averaged["confusion"].float()
    axes[2].imshow(conf / conf.sum(1, keepdim=True).clamp_min(1), cmap="Blues")
    axes[2].set_title("EMA model: confusion (row-normalised)")
    axes[2].set_xlabel("predicted")
    axes[2].set_ylabel("true")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## What to remember
#
# * Compute log-probabilities as `z - logsumexp(z)`; never `log(softmax(z))` by hand. Label smoothing is
#   `(1 - eps) * NLL + eps * mean_c(-log p_c)` in PyTorch's convention.
# * In NT-Xent, mask the self-similarity with `-inf` (not 0), and find each row's partner at `i +- N`.
# * Metrics: weight batch means by batch size, keep sufficient statistics (sums, counts, a confusion matrix),
#   and detach what you store.
# * Global-norm clipping: one factor `min(1, max_norm / (norm + 1e-6))` for all gradients, skip `grad is None`,
#   list-ify generators, return the pre-clip norm.
# * EMA: deep copy, first update copies, `decay` weighs the old average, `torch.no_grad()`, and an explicit
#   choice for buffers.
#
# These utilities come back in the mini training framework of 15-10.
