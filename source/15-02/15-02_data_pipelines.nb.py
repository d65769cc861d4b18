# %% [markdown]
# # 15-02 Advanced data pipelines
#
# A training loop only ever sees `for batch in loader:`. Behind that line the `DataLoader` runs a small
# machine with four replaceable parts:
#
# | part | question it answers | default |
# |---|---|---|
# | **sampler** | *which* sample indices, in what order? | `SequentialSampler` or `RandomSampler` |
# | **batch sampler** | which indices travel *together*? | `BatchSampler(sampler, batch_size, drop_last)` |
# | **dataset** | index (or stream position) -> one sample | your `Dataset` / `IterableDataset` |
# | **collate_fn** | list of samples -> one batch | `default_collate` (stacks tensors) |
#
# plus the *execution* settings (`num_workers`, `pin_memory`, `prefetch_factor`) that decide where and when
# that work happens. In this notebook you replace each part in turn:
#
# 1. a **length-bucketing batch sampler** that is reproducible from a `torch.Generator`;
# 2. **weighted random sampling** that balances an imbalanced FashionMNIST subset;
# 3. a **`collate_fn` for variable-length sequences** (padding, lengths, masks) ...
# 4. ... and **packing** those padded batches into an RNN so that padding never changes a result;
# 5. an **`IterableDataset`** that streams shards from disk and splits them correctly across worker processes;
#
# and finally you measure what worker processes buy on a decode-heavy dataset.
#
# Heavy demos run only when you run the notebook yourself (`run_demos()`); grading skips them.
#
# **Validate runs only the visible checks.** "Success!" means your code passes the examples in the
# test cells, not that it earns full marks: grading runs many more hidden checks on the same functions. Keep the
# `def` and `class` lines of the skeletons as they are (the parameters' names, their order and their defaults):
# a hidden check compares them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers, device. Runs on CPU or GPU (the GPU only matters for the pin_memory demo).
import torch
from course.student.checks import expect, expect_close, expect_equal
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden
DEVICE = pick_device()

# %%
import math
import os
import tempfile
import time

import matplotlib.pyplot as plt
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import (BatchSampler, DataLoader, Dataset, IterableDataset, RandomSampler, Sampler,
                              SequentialSampler, WeightedRandomSampler, get_worker_info)
from tqdm.auto import tqdm

from course.student.data import load

# %% [markdown]
# ## 0. What the DataLoader does with your objects
#
# For a map-style dataset (one with `__getitem__` and `__len__`), one epoch of `DataLoader(ds, batch_size=B,
# shuffle=True)` is, minus the worker machinery, exactly this:
#
# ```python
# sampler = RandomSampler(ds)                       # yields int indices
# batch_sampler = BatchSampler(sampler, B, drop_last=False)   # yields lists of B indices
# for indices in batch_sampler:
#     samples = [ds[i] for i in indices]            # the "fetch" step (runs in a worker when num_workers > 0)
#     yield collate_fn(samples)                     # default_collate stacks them
# ```
#
# `shuffle=True` is only a shortcut for `sampler=RandomSampler(ds)`, and `batch_size`/`drop_last` are only a
# shortcut for the `BatchSampler`. If you pass your own `batch_sampler=`, the loader uses it instead and you
# must *not* pass `batch_size`, `shuffle`, `sampler` or `drop_last`.
#
# Where does the shuffle come from? `RandomSampler` takes an optional `generator`. Without one it draws a
# fresh seed from the **global** RNG each time an epoch starts, so `torch.manual_seed` makes a run
# repeatable, but anything else that consumes the global RNG (dropout, augmentation, a new layer's
# initialisation) silently changes the data order. Passing a dedicated `torch.Generator` decouples the
# two. The cell below checks this.

# %%
g1 = torch.Generator().manual_seed(0)
g2 = torch.Generator().manual_seed(0)
order1 = list(RandomSampler(range(10), generator=g1))
_ = torch.randn(1000)  # consume the global RNG: a dedicated generator does not care
order2 = list(RandomSampler(range(10), generator=g2))
print("same seed, same order:", order1 == order2, order1)
print("a second epoch from the same generator:", list(RandomSampler(range(10), generator=g1)))
print("the default BatchSampler just chunks the sampler:",
      list(BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=False)))

# %% [markdown]
# Two properties matter for everything below:
#
# * **Same seed -> same order**, regardless of what else the program did with the global RNG. That is what
#   makes an experiment (or a resumed run) repeatable.
# * **Each epoch is a new order.** The generator's state advances while it is used, so the second pass
#   draws different numbers. A sampler that re-seeds itself inside `__iter__` would repeat the *same*
#   "shuffle" every epoch, a classic silent bug.
#
# ## 1. A length-bucketing batch sampler
#
# With variable-length inputs (sentences, audio, the image rows we use below) every batch is padded to the
# length of its *longest* member. Random batches mix short and long items, so much of the compute is spent on
# padding. **Bucketing** groups items of similar length: sort the indices by length, cut the sorted list into
# consecutive batches, and shuffle only the *order of the batches*. Each batch is then nearly homogeneous,
# while training still sees batches in a random order.
#
# A batch sampler is just a `Sampler` whose items are *lists* of indices. Implement
# `BucketBatchSampler(lengths, batch_size, drop_last=False, generator=None)`, its arguments in this order (a
# caller may pass any of them by position):
#
# * `lengths`: a list (or 1-D tensor) of non-negative ints, `lengths[i]` is the length of sample `i`;
# * sort the indices by length and cut the sorted list into consecutive batches of `batch_size`; only the
#   last chunk can be short (with an ascending sort it holds the longest items), and with `drop_last=True`
#   that short batch is dropped;
# * every `__iter__` (epoch) yields those batches as lists of Python ints in a random order (a uniform
#   shuffle: every order of the batches equally likely, as `torch.randperm` gives) drawn **only** from
#   `generator`; the same seed gives the same sequence of batches, each new epoch a new order;
#   "from `generator`" means the object passed in, in the state it is in: drawing advances it, and restoring
#   its state with `set_state` (as a resumed run does) repeats the epochs that followed;
# * if `generator` is `None`, make one seeded from the global RNG (as `RandomSampler` does);
# * `__len__` is the number of batches per epoch; asking it is not an epoch and draws nothing from `generator`.
#
# Hint: `torch.argsort(torch.as_tensor(lengths), stable=True)` and `torch.randperm(n, generator=...)`.

# %% [solution] id=bucket_sampler_impl
class BucketBatchSampler(Sampler):
    """Batches of indices with similar lengths, in a random (generator-driven) order each epoch."""

    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        ### BEGIN SOLUTION
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        self.lengths = torch.as_tensor(lengths, dtype=torch.int64)
        self.batch_size = int(batch_size)
        self.drop_last = bool(drop_last)
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))
        self.generator = generator
        order = torch.argsort(self.lengths, stable=True).tolist()
        batches = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        if self.drop_last and batches and len(batches[-1]) < self.batch_size:
            batches.pop()
        self.batches = batches
        ### END SOLUTION

    def __iter__(self):
        ### BEGIN SOLUTION
        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():
            yield list(self.batches[k])
        ### END SOLUTION

    def __len__(self):
        ### BEGIN SOLUTION
        return len(self.batches)
        ### END SOLUTION


# %% [tests] id=bucket_sampler_tests points=4
_lens = [5, 1, 9, 3, 3, 7, 2, 8]
_batches = list(BucketBatchSampler(_lens, batch_size=3, generator=torch.Generator().manual_seed(1)))
expect_equal(sorted(i for b in _batches for i in b), list(range(8)), "the indices of one epoch (each exactly once)")
expect_equal(len(BucketBatchSampler(_lens, 3)), 3, "len(BucketBatchSampler(8 lengths, batch_size=3))")
expect_equal(len(BucketBatchSampler(_lens, 3, drop_last=True)), 2, "len(...) with drop_last=True")
expect_equal(list(BucketBatchSampler(_lens, 3, generator=torch.Generator().manual_seed(1))), _batches,
             "the batches of a second sampler with the same generator seed")
### BEGIN HIDDEN TESTS
run_hidden("15-02", "bucket_sampler", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### How much padding does bucketing save?
#
# We turn FashionMNIST images into variable-length sequences: an image is a sequence of 28 rows (each a
# 28-dimensional vector), and we keep only a random number of leading rows, between 6 and 28. Then we count
# the fraction of padded positions per epoch under random batching and under bucketing.

# %%
fmnist = load("fashionmnist", train=True, synthetic_size=6000)
_gl = torch.Generator().manual_seed(0)
seq_lengths = torch.randint(6, 29, (len(fmnist),), generator=_gl).tolist()


def padding_fraction(batches, lengths):
    """Share of positions in the padded batches that are padding."""
    real = sum(lengths[i] for b in batches for i in b)
    total = sum(len(b) * max(lengths[i] for i in b) for b in batches)
    return 1 - real / total


if run_demos():
    random_batches = list(BatchSampler(RandomSampler(range(len(seq_lengths)), generator=_gl), 64, False))
    bucket_batches = list(BucketBatchSampler(seq_lengths, 64, generator=_gl))
    print(f"padding with random batches: {padding_fraction(random_batches, seq_lengths):.1%}, "
          f"with bucketing: {padding_fraction(bucket_batches, seq_lengths):.1%}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.2), sharey=True)
    for ax, batches, title in [(axes[0], random_batches[:40], "random batches"),
                               (axes[1], bucket_batches[:40], "bucketed batches (order shuffled)")]:
        for k, b in enumerate(batches):
            ls = [seq_lengths[i] for i in b]
            ax.vlines(k, min(ls), max(ls), lw=4)
        ax.set_title(title)
        ax.set_xlabel("batch number")
    axes[0].set_ylabel("range of lengths in the batch")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# Each bar spans the shortest to the longest sequence in one batch: every random batch is padded to about 28
# rows, a bucketed batch only to its own maximum. Bucketing is not free: batches are no longer i.i.d. mixtures
# (every batch of short sequences is also a batch of *similar* items), which is why the batch *order* is
# still shuffled. Production code (for example in speech recognition) often sorts only within large random
# pools to keep more randomness; the idea is the same.
#
# ## 2. Weighted random sampling for an imbalanced dataset
#
# Suppose the Sandal class is common and Bag is rare. A model trained on such data can reach a low loss by
# mostly ignoring the rare classes. Instead of re-weighting the loss we can re-weight the **sampling**:
# `WeightedRandomSampler(weights, num_samples, replacement=True, generator=g)` draws `num_samples` indices,
# index `i` with probability `weights[i] / sum(weights)`. The weights need not sum to one.
#
# If sample `i` has class `y_i` and class `c` has `n_c` members, the weight `w_i = 1 / n_{y_i}` gives every
# class a total weight of `n_c * (1/n_c) = 1`: all classes are drawn equally often, and inside a class every
# member equally often. Sampling must be *with replacement*: a rare class with 30 members can only be drawn
# 30 times per epoch otherwise.
#
# Implement
#
# * `class_balanced_weights(targets)`: `targets` is a 1-D tensor of non-negative integer labels or a list of
#   such ints; return a float tensor of shape `(N,)` with `weights[i] = 1 / count(targets[i])` (any positive common factor is fine).
#   Labels need not be contiguous (e.g. only classes 0, 3 and 7).
# * `make_balanced_sampler(targets, num_samples, generator=None)`, with `targets` as above (a tensor or a list):
#   a sampler yielding `num_samples` indices in `range(N)` such that every class *present* in `targets` is drawn
#   equally often in expectation, drawn reproducibly from `generator` (the object passed in, in the state it is
#   in: drawing advances it, and restoring its state with `set_state` repeats the draws that followed); every
#   pass over it (every epoch) draws anew, as `WeightedRandomSampler` does (two passes at the same time each
#   yield their own `num_samples`); with `generator=None` the draws come from the global RNG, as that sampler's
#   do: each pass draws from the global RNG as it is when that pass runs.

# %% [solution] id=balanced_impl
def class_balanced_weights(targets):
    """Per-sample weights 1 / (size of the sample's class), as a float tensor of shape (N,)."""
    ### BEGIN SOLUTION
    targets = torch.as_tensor(targets, dtype=torch.int64)
    counts = torch.bincount(targets)
    return 1.0 / counts[targets].double()
    ### END SOLUTION


def make_balanced_sampler(targets, num_samples, generator=None):
    """A sampler over range(len(targets)) that draws every present class equally often."""
    ### BEGIN SOLUTION
    weights = class_balanced_weights(targets)
    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)
    ### END SOLUTION


# %% [tests] id=balanced_tests points=4
_t = torch.tensor([0, 0, 0, 1, 2, 2])
_w = class_balanced_weights(_t)
expect_close(_w / _w[0], torch.tensor([1, 1, 1, 3, 1.5, 1.5]),
             "class_balanced_weights([0, 0, 0, 1, 2, 2]) relative to the first sample's weight")
_s = make_balanced_sampler(_t, 12, generator=torch.Generator().manual_seed(0))
_drawn = list(_s)
expect_equal(len(_drawn), 12, "the number of indices make_balanced_sampler(targets, 12) yields")
expect(all(0 <= i < 6 for i in _drawn), f"indices in range(6), got {_drawn}")
### BEGIN HIDDEN TESTS
run_hidden("15-02", "balanced", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Balancing an imbalanced FashionMNIST subset
#
# We build a subset in which class `c` keeps a share of its images that decays geometrically with `c`,
# so class 0 has about 60 times as many images as class 9, and compare the class histogram of one epoch of
# uniform sampling with one epoch of balanced sampling.

# %%
if run_demos():
    _targets_all = torch.as_tensor(fmnist.targets)  # both the real data set and the stand-in have .targets
    _keep_prob = 0.63 ** torch.arange(10, dtype=torch.float64)
    _u = torch.rand(len(_targets_all), generator=torch.Generator().manual_seed(3), dtype=torch.float64)
    imbalanced_idx = torch.nonzero(_u < _keep_prob[_targets_all]).flatten()
    imb_targets = _targets_all[imbalanced_idx]
    print("class counts in the imbalanced subset:", torch.bincount(imb_targets, minlength=10).tolist())

    _uniform = imb_targets[torch.randint(0, len(imb_targets), (len(imb_targets),))]
    _balanced = imb_targets[torch.tensor(list(make_balanced_sampler(imb_targets, len(imb_targets),
                                                                     torch.Generator().manual_seed(0))))]
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar(torch.arange(10) - 0.2, torch.bincount(_uniform, minlength=10), width=0.4, label="uniform sampling")
    ax.bar(torch.arange(10) + 0.2, torch.bincount(_balanced, minlength=10), width=0.4, label="balanced sampling")
    ax.set_xlabel("class")
    ax.set_ylabel("draws in one epoch")
    ax.legend()
    plt.tight_layout()
    plt.show()

# %% [markdown]
# The balanced epoch shows each rare image many times (with replacement). That is the trade-off:
# oversampling duplicates the few rare examples, so augmentation matters more, and the model's predicted
# class frequencies now match a *balanced* world, not the original one. If you need calibrated
# probabilities for the real class frequencies you must correct for the sampling afterwards.
#
# ## 3. A `collate_fn` for variable-length sequences
#
# `default_collate` stacks samples with `torch.stack`, which needs equal shapes. For sequences of different
# lengths we must pad, and we must keep enough information to undo the padding later:
#
# * `padded`: shape `(B, T, *)` with `T = max length in this batch`, on the sequences' device, zeros after each
#   sequence's end;
# * `lengths`: int64 tensor `(B,)`, the true lengths (what `pack_padded_sequence` needs, on the CPU);
# * `mask`: bool tensor `(B, T)`, `True` at real positions (what attention or a masked mean needs);
# * `labels`: int64 tensor `(B,)`.
#
# Implement `pad_collate(batch)` where `batch` is a list of `(sequence, label)` pairs, each sequence a tensor
# of shape `(L_i, *)` (any trailing shape, any dtype; the padded tensor keeps that dtype and every value exactly)
# with `L_i >= 1`.
# A label is a Python `int` or a 0-d tensor of any integer dtype (as a `TensorDataset` yields).
# Keep the batch in the order given: sorting here would misalign samples from any bookkeeping done outside.
# Each call's tensors are its own: new tensors that share memory neither with the samples passed in (a batch of
# one included) nor with another call's, so writing into a batch leaves the samples as they were, and collating
# the next batch leaves a batch returned earlier as it was (a `DataLoader` holds several batches at once).
# You may use `torch.nn.utils.rnn.pad_sequence`.

# %% [solution] id=collate_impl
def pad_collate(batch):
    """List of (sequence (L_i, *), label) -> (padded (B, T, *), lengths (B,), mask (B, T), labels (B,))."""
    ### BEGIN SOLUTION
    seqs = [s for s, _ in batch]
    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)
    return padded, lengths, mask, labels
    ### END SOLUTION


# %% [tests] id=collate_tests points=3
_b = [(torch.ones(2, 3), 4), (torch.ones(5, 3), 1)]
_p, _l, _m, _y = pad_collate(_b)
expect_equal(tuple(_p.shape), (2, 5, 3), "the padded batch's shape")
expect_equal(_l.tolist(), [2, 5], "the lengths")
expect_equal(_y.tolist(), [4, 1], "the labels")
expect_equal(_m.dtype, torch.bool, "the mask's dtype")
expect_equal(int(_m.sum()), 7, "the number of True entries in the mask (2 + 5 real steps)")
expect_equal(_p[0, 2:], torch.zeros(3, 3), "the padding of the first (shorter) sequence")
### BEGIN HIDDEN TESTS
run_hidden("15-02", "collate", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Packing: running an RNN as if there were no padding
#
# Feeding a padded batch straight into an RNN is subtly wrong. A unidirectional RNN keeps running over the
# zeros after a sequence ends, so its *final* hidden state `h_n` belongs to the padded length, not the true
# one; a bidirectional RNN is worse, its backward direction *starts* in the padding.
#
# `pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)` builds a `PackedSequence`:
# the time steps are stored time-major, and at step `t` only the sequences still running (`L_i > t`) are
# present (`batch_sizes[t]` says how many). The sequences are internally sorted by length (that is what
# `enforce_sorted=False` allows; `sorted_indices` remembers the permutation). cuDNN and the CPU kernels then
# simply process fewer rows at later steps, so no padding is ever computed, and `h_n` holds each
# sequence's state at its own last step, **returned in the original batch order**.
# `pad_packed_sequence(out, batch_first=True, total_length=T)` turns the packed output back into a zero-padded
# tensor.

# %%
_x = torch.arange(1, 10.).reshape(3, 3, 1)  # three sequences, padded to length 3
_packed = pack_padded_sequence(_x, torch.tensor([1, 3, 2]), batch_first=True, enforce_sorted=False)
print("data (time-major, longest first):", _packed.data.flatten().tolist())
print("batch_sizes:", _packed.batch_sizes.tolist(), " sorted_indices:", _packed.sorted_indices.tolist())

# %% [markdown]
# Implement `run_packed_rnn(rnn, padded, lengths)` for any `nn.RNN`, `nn.GRU` or `nn.LSTM` built with
# `batch_first=True` (any number of layers, uni- or bidirectional, any floating dtype: `output` and `last`
# come back in the RNN's own dtype, on its device). Return `(output, last)`:
#
# * `output`: shape `(B, T, D*H)` where `T = padded.shape[1]` (keep the input's time dimension even when it
#   is longer than the longest sequence), equal to the RNN's output for each sequence run **alone**, and
#   exactly zero at padded positions;
# * `last`: shape `(B, D*H)`, the top layer's final hidden state for each sequence run alone: the forward
#   direction's state after its last real step, followed (if bidirectional) by the backward direction's
#   state after it has read back to step 0. For an LSTM use the hidden state `h`, not the cell state `c`.
#
# Whatever is stored in the padded positions of `padded` (any values, NaN and inf included) must not change
# either result, while the real steps count as they are (a NaN or inf there acts as it does for the sequence run
# alone: do not "clean" the input), and `padded` and `lengths` belong to the caller: leave them as they were.

# %% [solution] id=packed_rnn_impl
def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    ### BEGIN SOLUTION
    lengths = torch.as_tensor(lengths, dtype=torch.int64).cpu()
    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
    out, h = rnn(packed)
    if isinstance(h, tuple):  # LSTM: (h_n, c_n)
        h = h[0]
    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    d = 2 if rnn.bidirectional else 1
    last = torch.cat([h[-d + k] for k in range(d)], dim=-1)
    return output, last
    ### END SOLUTION


# %% [tests] id=packed_rnn_tests points=4
_rnn = torch.nn.GRU(2, 3, batch_first=True)
_xp = torch.randn(2, 4, 2)
_out, _last = run_packed_rnn(_rnn, _xp, torch.tensor([4, 2]))
expect_equal((tuple(_out.shape), tuple(_last.shape)), ((2, 4, 3), (2, 3)), "the shapes of (outputs, last)")
expect_equal(_out[1, 2:].detach(), torch.zeros(2, 3), "outputs at the padded steps of the shorter sequence")
with torch.no_grad():
    expect_close(_last[1], _rnn(_xp[1:, :2])[1][0, 0], "the last hidden state of the length-2 sequence "
                 "(the GRU run on its 2 real steps only)", atol=1e-5)
### BEGIN HIDDEN TESTS
run_hidden("15-02", "packed_rnn", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Putting 1-4 together: a row-by-row GRU classifier
#
# The pieces compose: the bucketing sampler picks indices, a tiny dataset returns `(rows, label)` with a
# variable number of rows, `pad_collate` pads them, and `run_packed_rnn` runs a GRU over each image's rows as
# if it were alone. A few hundred steps are enough to see the loss fall.

# %%
class RowSequences(Dataset):
    """Image i as a sequence of its first seq_lengths[i] rows: a (L_i, 28) float tensor."""

    def __init__(self, images, lengths):
        self.images, self.lengths = images, lengths

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, i):
        img, label = self.images[i]
        return img[0, :self.lengths[i]], int(label)


class RowGRU(torch.nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.rnn = torch.nn.GRU(28, hidden, batch_first=True)
        self.head = torch.nn.Linear(hidden, 10)

    def forward(self, padded, lengths):
        _, last = run_packed_rnn(self.rnn, padded, lengths)
        return self.head(last)


if run_demos():
    torch.manual_seed(0)
    n_train = 3000
    row_ds = RowSequences(fmnist, seq_lengths[:n_train])
    loader = DataLoader(row_ds, collate_fn=pad_collate,
                        batch_sampler=BucketBatchSampler(seq_lengths[:n_train], 64,
                                                         generator=torch.Generator().manual_seed(0)))
    model = RowGRU().to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    losses = []
    for epoch in range(3):
        for padded, lengths, mask, labels in tqdm(loader, desc=f"epoch {epoch}", leave=False):
            loss = torch.nn.functional.cross_entropy(model(padded.to(DEVICE), lengths), labels.to(DEVICE))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    plt.figure(figsize=(6, 3))
    plt.plot(losses)
    plt.xlabel("step")
    plt.ylabel("training loss")
    plt.title("GRU over variable-length row sequences")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## 5. Streaming with an `IterableDataset`, and sharding across workers
#
# A map-style dataset promises random access: `ds[i]` for any `i`. Data that lives in large files, in a
# database cursor or on the network often offers only sequential reads. An `IterableDataset` drops the
# promise: it only implements `__iter__`, and the `DataLoader` simply takes items from that iterator (no
# sampler, no shuffling by index).
#
# The catch is the workers. With `num_workers=k` the loader starts `k` processes and gives **each one a copy
# of the dataset object**; each worker calls `iter()` on its copy. Without further care every worker streams
# the whole dataset, so an epoch contains every sample `k` times. Inside a worker,
# `torch.utils.data.get_worker_info()` returns an object with `.id` (0..k-1) and `.num_workers`; in the main
# process (`num_workers=0`) it returns `None`. The dataset must use it to give each worker a disjoint share:
# for example whole files `id, id + k, id + 2k, ...` (cheap, but uneven when there are few files) or every
# `k`-th record (even, but every worker reads every file).
#
# The shards in this exercise are files written with `torch.save({"x": X, "y": Y}, path)` where `X` has shape
# `(n, ...)` and `Y`, the labels, is an integer tensor of shape `(n,)`. Implement `ShardedFileStream(paths)`:
#
# * iterating yields `(X[j], int(Y[j]))` for every record of every file, each exactly once per pass, for any
#   `num_workers` (0, 1, 2, ...): no duplicates, no losses. Where workers are fresh processes (the `spawn`
#   start method, the default on macOS and Windows) each one's copy of the data set is made by pickling, so
#   keep only picklable state on it (no lambdas, local functions or open files);
# * it **streams**: files are opened during iteration only, never in `__init__` (a file may not even exist yet
#   when the dataset is built). Loading one file at a time also keeps memory small;
# * it can be iterated again (every pass yields everything again).
#
# Load with `torch.load(path)` (the default `weights_only=True` is fine for these files).

# %% [solution] id=stream_impl
class ShardedFileStream(IterableDataset):
    """Stream (x, y) records from torch.save'd shard files, split across DataLoader workers."""

    def __init__(self, paths):
        ### BEGIN SOLUTION
        self.paths = [str(p) for p in paths]
        ### END SOLUTION

    def __iter__(self):
        ### BEGIN SOLUTION
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        for path in self.paths[wid::nw]:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
        ### END SOLUTION


# %% [tests] id=stream_tests points=4
with tempfile.TemporaryDirectory() as _d:
    _paths = [os.path.join(_d, f"shard{k}.pt") for k in range(3)]
    for _k, _pth in enumerate(_paths):
        torch.save({"x": torch.full((4, 2), float(_k)), "y": torch.arange(4) + 4 * _k}, _pth)
    _ids = sorted(int(y) for _, y in ShardedFileStream(_paths))
    expect_equal(_ids, list(range(12)), "the sorted labels streamed from 3 shards of 4 records")
### BEGIN HIDDEN TESTS
run_hidden("15-02", "stream", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Seeing why sharding matters
#
# The cell below writes six FashionMNIST shards and streams them with two workers, once through your
# `ShardedFileStream` and once through a naive stream that ignores `get_worker_info()`. Count the records.

# %%
def write_shards(dataset, folder, n_shards, per_shard):
    paths = []
    for k in range(n_shards):
        xs, ys = zip(*(dataset[k * per_shard + j] for j in range(per_shard)))
        path = os.path.join(folder, f"fmnist_{k:03d}.pt")
        torch.save({"x": torch.stack(xs), "y": torch.tensor(ys)}, path)
        paths.append(path)
    return paths


class NaiveStream(IterableDataset):
    """Streams every shard in every worker: the bug sharding prevents."""

    def __init__(self, paths):
        self.paths = paths

    def __iter__(self):
        for path in self.paths:
            shard = torch.load(path)
            yield from zip(shard["x"], shard["y"].tolist())


if run_demos():
    with tempfile.TemporaryDirectory() as folder:
        shard_paths = write_shards(fmnist, folder, n_shards=6, per_shard=100)
        for cls in (ShardedFileStream, NaiveStream):
            n = sum(len(y) for _, y in DataLoader(cls(shard_paths), batch_size=50, num_workers=2))
            print(f"{cls.__name__:18s} with 2 workers: {n} records (the shards hold {6 * 100})")

# %% [markdown]
# ## 6. Workers, prefetching and `pin_memory`: measuring instead of guessing
#
# With `num_workers=k > 0` the `DataLoader` forks `k` processes. Each receives index batches from the main
# process, fetches and collates them, and sends the result back through a queue; the tensors travel through
# shared memory, so the main process only receives handles. Up to `prefetch_factor * k` batches (default
# `2 * k`) are in flight, so while the model computes on one batch the next ones are already being built.
# This helps exactly when fetching a sample is expensive (decoding JPEG/PNG, augmentation) and the Python
# work in `__getitem__` can run in parallel; it costs process start-up time each epoch (unless
# `persistent_workers=True`) and memory for each copy.
#
# `pin_memory=True` makes the loader copy each batch into page-locked host memory in a background thread.
# Only from pinned memory can `tensor.to("cuda", non_blocking=True)` be a truly asynchronous DMA transfer that
# overlaps with GPU compute. Pinning is itself a copy, so it pays off only when the transfer overlaps with
# work; on a CPU-only machine it does nothing useful.
#
# The benchmark uses a deliberately *decode-heavy* dataset: every image is stored zlib-compressed, and
# `__getitem__` decompresses it and runs a small blur, as a JPEG decoder plus augmentation would. We measure
# images per second with 0 and 2 workers (a demo, not a graded timing: the numbers depend on the machine).

# %%
import zlib


class CompressedImages(Dataset):
    """FashionMNIST-like images stored compressed; __getitem__ pays for decoding and a blur."""

    def __init__(self, base, n, repeat_blur=20):
        self.blobs, self.labels = [], []
        for i in range(n):
            img, y = base[i]
            self.blobs.append(zlib.compress((img * 255).to(torch.uint8).numpy().tobytes(), level=9))
            self.labels.append(int(y))
        self.kernel = torch.full((1, 1, 3, 3), 1 / 9)
        self.repeat_blur = repeat_blur

    def __len__(self):
        return len(self.blobs)

    def __getitem__(self, i):
        raw = torch.frombuffer(bytearray(zlib.decompress(self.blobs[i])), dtype=torch.uint8)
        img = raw.reshape(1, 1, 28, 28).float() / 255
        for _ in range(self.repeat_blur):
            img = torch.nn.functional.conv2d(img, self.kernel, padding=1)
        return img[0], self.labels[i]


def images_per_second(loader, max_batches=None):
    start, n = time.perf_counter(), 0
    for k, (x, _) in enumerate(loader):
        n += len(x)
        if max_batches is not None and k + 1 >= max_batches:
            break
    return n / (time.perf_counter() - start)


if run_demos():
    heavy = CompressedImages(fmnist, 2000)
    torch.set_num_threads(1)  # one thread per process, so workers do not fight over cores
    rates = {}
    for workers in tqdm([0, 2], desc="benchmark"):
        loader = DataLoader(heavy, batch_size=64, shuffle=True, num_workers=workers,
                            pin_memory=DEVICE.type == "cuda")
        images_per_second(loader, max_batches=3)  # warm-up (and worker start-up) outside the timing
        rates[workers] = images_per_second(loader)
    torch.set_num_threads(os.cpu_count() or 1)
    print({f"num_workers={k}": f"{v:,.0f} images/s" for k, v in rates.items()})
    print(f"speed-up of 2 workers over 0: {rates[2] / rates[0]:.2f}x (cores here: {os.cpu_count()})")

# %% [markdown]
# On a machine with spare cores, two workers come close to a 2x speed-up on such a dataset. With only two
# cores the main process competes with the workers, and on a machine busy with other jobs the gain can vanish
# altogether: the ratio measures your hardware as much as your pipeline. If `__getitem__` is cheap (tensors
# already in memory), workers are often *slower*: sending batches between processes costs more than
# building them. Measure before you tune `num_workers`.
#
# With a GPU, the cell below compares a plain copy with a pinned, non-blocking one. A single blocking copy of
# pinned memory is usually faster than from pageable memory; the larger benefit, overlap with compute, only
# appears when the copy is issued `non_blocking=True` and the GPU has work to do meanwhile.

# %%
if run_demos() and DEVICE.type == "cuda":
    host = torch.randn(64, 1, 28, 28 * 32)
    pinned = host.pin_memory()
    for name, src, nb in [("pageable, blocking", host, False), ("pinned, non_blocking", pinned, True)]:
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(50):
            dst = src.to(DEVICE, non_blocking=nb)
        torch.cuda.synchronize()
        print(f"{name:22s}: {(time.perf_counter() - t0) / 50 * 1e6:8.1f} us per copy "
              f"({host.numel() * 4 / 2**20:.1f} MiB)")

# %% [markdown]
# ## Summary
#
# * A `DataLoader` is sampler -> batch sampler -> fetch -> collate; each part can be replaced.
# * Give samplers their own `torch.Generator`: the same seed reproduces the order, each epoch advances it.
# * Length bucketing trades a little randomness for much less padding.
# * Class balancing by sampling: weight `1 / n_class`, with replacement.
# * Pad + lengths + mask in `collate_fn`; pack before the RNN so padding never changes a result.
# * An `IterableDataset` must shard itself with `get_worker_info()`, or every worker yields everything.
# * Workers and pinned memory are performance tools: measure them on your data and hardware.
