# %% [markdown]
# # 15-08 · Distributed primitives: point-to-point, rings, trees and groups
#
# Data-parallel training (DDP) and sharded training (FSDP) look like magic from the outside: wrap the
# model, launch four processes, and the gradients agree. Underneath there are only a handful of
# operations that move tensors between processes: a **send** and a **receive** between two ranks, and a
# few **collectives** in which every rank of a group takes part (`all_reduce`, `broadcast`,
# `all_gather`, `reduce_scatter`). In this notebook you build the important collectives yourself out of
# point-to-point messages, so that you know what they cost and why they are shaped the way they are.
#
# **You will build**
# 1. `ring_pass`: every rank hands its tensor to its right neighbour, with blocking `send`/`recv`, without
#    deadlocking.
# 2. `ring_all_reduce`: the bandwidth-optimal all-reduce (a reduce-scatter phase, then an all-gather
#    phase), from `isend`/`irecv` only.
# 3. `tree_broadcast`: a broadcast from any root along a binomial tree (about log2 N rounds instead of N-1).
# 4. `gather_shards` and `reduce_scatter_shards`: FSDP's two collectives for tensors whose length is not a
#    multiple of the number of ranks.
# 5. `group_sums`: an all-reduce inside sub-groups made with `dist.new_group`.
#
# Everything runs on CPU with the **gloo** backend: each "GPU" is a process forked from this notebook,
# and they talk over the loopback network. The same code runs unchanged with the **NCCL** backend on
# CUDA tensors (section 7 says what changes).
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full marks.
# When you submit, hidden checks run your functions on 2, 3 and 4 ranks, with several dtypes, shapes and
# lengths that do not divide evenly, compare the results with gloo's own collectives, and **count the
# bytes every rank sends**. A function that deadlocks fails its check after a timeout (it does not hang
# the grader). Heavy demos below only run when you run the notebook yourself. Keep the `def` and `class` lines
# of the skeletons as they are (the parameters' names, their order and their defaults): a hidden check compares
# them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and device. The exercises run on CPU (gloo); a GPU is not needed.
import datetime
import math
import multiprocessing as mp
import os
import pickle
import tempfile
import time
import traceback

import torch
import torch.distributed as dist

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 1. Ranks, a world, and a launcher
#
# A distributed job is N processes running **the same function**. Each knows two numbers:
# `dist.get_rank()` (who am I, 0 ... N-1) and `dist.get_world_size()` (N). Before they can talk they
# must *rendezvous*: agree on who is who and exchange addresses. `dist.init_process_group` does that
# through a **store**, a tiny shared key-value table. Three kinds are common:
#
# | store | how the ranks find it | typical use |
# |---|---|---|
# | `TCPStore(host, port, ...)` | rank 0 serves it on a port | multi-node jobs (`torchrun` sets `MASTER_ADDR`/`MASTER_PORT`) |
# | `FileStore(path, N)` | a file every rank can open | one machine, no free port needed |
# | `HashStore()` | in one process only | tests |
#
# The usual launcher is `torch.multiprocessing.spawn` (or `torchrun`), which starts fresh interpreters and
# imports your function by name. A function defined in a notebook cell has no importable name, so the
# launcher below **forks** instead: each child is a copy of this kernel, with your functions already
# defined. It gives every rank a fresh `FileStore` in a temporary folder (a store file must never be
# reused), a timeout for every operation, runs `fn(*args)` and ships the result back through a pipe.
# If a rank hangs (a deadlock) it is killed after `timeout` seconds and you get an error, not a frozen
# notebook. Now and then, on a busy machine, a rank fails to join the group (gloo could not connect, or the
# fresh copy stalled) before your function even starts; the launcher then starts every rank again (three
# tries at most). Only a rank that joined and then stopped answering is reported as a deadlock.

# %%
def _rank_entry(fn, rank, world_size, store_path, args, conn, op_timeout):
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")  # the loopback interface is always there
    torch.set_num_threads(1)
    try:
        dist.init_process_group("gloo", store=dist.FileStore(store_path, world_size), rank=rank,
                                world_size=world_size, timeout=datetime.timedelta(seconds=op_timeout))
    except Exception as exc:  # the group never formed: launch() starts every rank again
        reply = ("no group", f"{type(exc).__name__}: {str(exc)[:300]}")
    else:
        conn.send_bytes(pickle.dumps(("joined", None)))  # from here on, a silent rank is your code's doing
        try:
            reply = ("ok", fn(*args))
        except BaseException as exc:
            if isinstance(exc, NotImplementedError) and not exc.args:  # an exercise's stub: name the function
                reply = ("not written", traceback.extract_tb(exc.__traceback__)[-1].name)
            else:
                reply = ("error", f"{type(exc).__name__}: {str(exc)[:300]}")
    try:  # plain pickle: multiprocessing's own pickler would share tensors through this process's memory
        conn.send_bytes(pickle.dumps(reply))
    finally:
        conn.close()
        os._exit(0)  # skip interpreter shutdown: nothing of the parent's state needs tidying in a child


def _run_world(fn, world_size, args_per_rank, timeout, op_timeout):
    """One try: fork the ranks, collect each one's reply; a rank silent at the deadline gets None."""
    from multiprocessing.connection import wait as wait_any
    ctx = mp.get_context("fork")
    with tempfile.TemporaryDirectory() as tmp:
        store_path = os.path.join(tmp, "store")
        pipes, procs = [], []
        for rank in range(world_size):
            parent_end, child_end = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_rank_entry, daemon=True, args=(fn, rank, world_size, store_path,
                                                                  tuple(args_per_rank[rank]), child_end,
                                                                  op_timeout))
            p.start()
            child_end.close()
            pipes.append(parent_end)
            procs.append(p)
        deadline = time.monotonic() + timeout
        joined, results = set(), [None] * world_size
        waiting = {conn: rank for rank, conn in enumerate(pipes)}
        while waiting and time.monotonic() < deadline:
            for conn in wait_any(list(waiting), max(0.0, deadline - time.monotonic())):
                rank = waiting[conn]
                try:
                    status, value = pickle.loads(conn.recv_bytes())
                except EOFError:
                    status, value = "error", "the process ended without a result"
                if status == "joined":
                    joined.add(rank)
                else:
                    results[rank] = (status, value)
                    del waiting[conn]
        for p in procs:
            p.join(timeout=1.0)
            if p.is_alive():
                p.kill()
                p.join()
    return results, joined


def launch(fn, world_size, args_per_rank=None, timeout=30.0, op_timeout=10.0):
    """Run fn(*args_per_rank[r]) on ranks r = 0..world_size-1 of a fresh gloo group; return the results.

    Raises RuntimeError naming the rank that failed, or the ranks still running after `timeout` s.
    """
    args_per_rank = args_per_rank or [()] * world_size
    for _attempt in range(3):  # a world where some rank never joined the group starts over
        results, joined = _run_world(fn, world_size, args_per_rank, timeout, op_timeout)
        never_joined = [r for r, res in enumerate(results)
                        if r not in joined and (res is None or res[0] == "no group")]
        if not never_joined:
            break
    if never_joined:
        raise RuntimeError(f"ranks {never_joined} could not join the gloo group in three tries "
                           f"(a busy machine? run the cell again)")
    hung = [r for r, res in enumerate(results) if res is None]
    if hung:
        raise RuntimeError(f"ranks {hung} did not finish within {timeout} s (a deadlock?)")
    for rank, (status, value) in enumerate(results):
        if status == "not written":  # an exercise not done yet: say so plainly
            raise NotImplementedError(f"rank {rank}: {value} is not written yet")
        if status == "error":
            raise RuntimeError(f"rank {rank} raised {value}")
    return [value for _, value in results]


def whoami():
    return dist.get_rank(), dist.get_world_size(), dist.get_backend()


print(launch(whoami, 3))

# %% [markdown]
# ## 2. Point-to-point: `send`, `recv`, and the first deadlock
#
# `dist.send(tensor, dst)` ships a tensor to rank `dst`; `dist.recv(buf, src)` fills a pre-allocated
# buffer of the same size and dtype with what `src` sent. Both block, and with gloo a `send` does not
# return until the matching `recv` has been posted on the other side (a *rendezvous*, there is no
# buffering). Two rules follow:
#
# * Both sides must agree on the size and dtype: the receiver allocates `torch.empty_like(...)` of
#   something it knows the shape of. Gloo sends raw memory, so the tensor must be **contiguous**
#   (`x.contiguous()` is free when it already is).
# * If every rank calls `send` first, every rank waits for a `recv` that nobody posts: a **deadlock**.
#   The classic fix for a ring is to break the symmetry: even ranks send then receive, odd ranks receive
#   then send. (The non-blocking `isend`/`irecv` of section 3 are the other fix.)
#
# The demo below runs the symmetric version on two ranks with a one-second operation timeout.

# %%
def everyone_sends_first():
    rank, world = dist.get_rank(), dist.get_world_size()
    buf = torch.empty(4)
    dist.send(torch.full((4,), float(rank)), (rank + 1) % world)
    dist.recv(buf, (rank - 1) % world)
    return buf


if run_demos():  # about two seconds: the ranks wait for their one-second timeout
    try:
        launch(everyone_sends_first, 2, op_timeout=1.0, timeout=10.0)
    except RuntimeError as exc:
        print("as expected:", str(exc)[:110], "...")

# %% [markdown]
# ### Exercise 1 · `ring_pass` (3 points)
#
# `ring_pass(x)` runs on every rank of the default group (world size N ≥ 2). Each rank sends its `x` to
# its right neighbour `(rank + 1) % N` and returns the tensor it receives from its left neighbour
# `(rank - 1) % N`.
#
# * Use point-to-point calls only (the blocking `dist.send` and `dist.recv` are enough), ordered so that
#   no world size deadlocks.
# * Return a new tensor with the shape, dtype and values of the left neighbour's `x`, bit for bit (a message
#   moves bits: a -0.0, a NaN or an inf arrives as it was sent).
# * `x` may be non-contiguous; it must not be modified.
# * Each rank sends exactly one message, of `x.numel()` elements, and calls no collective.
# * Make every tensor you create on `x`'s device (`torch.empty_like(x)`, `x.new_empty(...)` or
#   `device=x.device`): the same code runs with NCCL, where `x` lives on `cuda:rank`.

# %% [solution] id=ring_pass_impl
def ring_pass(x: torch.Tensor) -> torch.Tensor:
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    outgoing = x.contiguous()
    incoming = torch.empty_like(outgoing)
    right, left = (rank + 1) % world, (rank - 1) % world
    if rank % 2 == 0:
        dist.send(outgoing, right)
        dist.recv(incoming, left)
    else:
        dist.recv(incoming, left)
        dist.send(outgoing, right)
    return incoming
    ### END SOLUTION

# %% [tests] id=ring_pass_tests points=3
def _ring_pass_rank(rank):
    return ring_pass(torch.arange(6.0).reshape(2, 3) + 10 * rank)


for _n in (2, 3):
    _got = launch(_ring_pass_rank, _n, [(r,) for r in range(_n)])
    for _r in range(_n):
        expect_equal(_got[_r], torch.arange(6.0).reshape(2, 3) + 10 * ((_r - 1) % _n),
                     f"ring_pass on rank {_r} of {_n} (it receives rank {(_r - 1) % _n}'s tensor)")
### BEGIN HIDDEN TESTS
run_hidden("15-08", "ring_pass", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. The ring all-reduce
#
# `all_reduce` leaves on every rank the sum of all ranks' tensors. DDP calls it on the gradients after
# every backward. The obvious way (everyone sends everything to rank 0, rank 0 adds and sends the sum
# back) makes rank 0 send (N-1)·n elements: the root's link is the bottleneck, and it gets worse with
# every rank you add.
#
# The **ring all-reduce** keeps every link equally busy. Cut the flat tensor into N chunks
# (`torch.tensor_split(flat, N)`: the first `n % N` chunks are one element longer). Then:
#
# 1. **Reduce-scatter**, N-1 steps. At step s, rank r sends chunk `(r - s) % N` to its right neighbour,
#    receives chunk `(r - s - 1) % N` from its left neighbour and adds it to its own copy. After N-1 steps
#    rank r holds the complete sum of chunk `(r + 1) % N`.
# 2. **All-gather**, N-1 more steps. Now the finished chunks travel round the ring: at step s, rank r sends
#    chunk `(r + 1 - s) % N` and overwrites chunk `(r - s) % N` with what arrives.
#
# Every rank sends 2(N-1) chunks, about **2(N-1)/N · n elements, almost independent of N**, and all
# links work in parallel. That is why the algorithm is called bandwidth-optimal: no all-reduce can make
# every rank send less than (N-1)/N · n elements of a reduce-scatter plus the same again to share the
# results.
#
# In each step a rank both sends and receives. With blocking calls that is the deadlock of section 2, so
# use the non-blocking versions: `req = dist.isend(t, dst)` and `req = dist.irecv(buf, src)` return at
# once, and `req.wait()` blocks until that transfer is done. Do not touch a buffer while a transfer on it
# is in flight. The drawing shows which chunk each rank sends at each step for N = 4.

# %%
def ring_schedule(world):
    """(phase, step, rank) -> index of the chunk that rank sends to its right neighbour."""
    plan = {}
    for s in range(world - 1):
        for r in range(world):
            plan[("reduce-scatter", s, r)] = (r - s) % world
            plan[("all-gather", s, r)] = (r + 1 - s) % world
    return plan


_plan = ring_schedule(4)
for _phase in ("reduce-scatter", "all-gather"):
    for _s in range(3):
        print(f"{_phase:>14} step {_s}: " + "  ".join(f"rank {r} sends chunk {_plan[(_phase, _s, r)]}"
                                                       for r in range(4)))

if run_demos():
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 6, figsize=(15, 2.8))
    for ax, (phase, s) in zip(axes, [(p, s) for p in ("reduce-scatter", "all-gather") for s in range(3)]):
        for r in range(4):
            c = _plan[(phase, s, r)]
            ax.add_patch(plt.Rectangle((c, 3 - r), 1, 1, color=plt.cm.tab10(c), alpha=0.8))
            ax.annotate("", xy=(c + 0.5, 3 - (r + 1) % 4 + 0.5), xytext=(c + 0.5, 3 - r + 0.5),
                        arrowprops=dict(arrowstyle="->", lw=1))
        ax.set(xlim=(0, 4), ylim=(0, 4), xticks=[0.5, 1.5, 2.5, 3.5], xticklabels=range(4),
               yticks=[0.5, 1.5, 2.5, 3.5], yticklabels=[3, 2, 1, 0], title=f"{phase} {s}")
        ax.set_xlabel("chunk")
    axes[0].set_ylabel("rank (sender)")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 2 · `ring_all_reduce` (4 points)
#
# `ring_all_reduce(x)` returns, on every rank, the element-wise sum of `x` over all ranks of the default
# group, computed with the ring above (N ≥ 1: on a world of one rank, the sum is a copy of `x`).
#
# * `x` has the same shape and dtype on every rank: any shape (a 0-d tensor, an empty one, lengths that
#   N does not divide, fewer elements than ranks), any memory layout (it may be non-contiguous), and a float
#   or integer dtype.
# * Return a new tensor of `x`'s shape and dtype; leave `x` unchanged.
# * Use point-to-point messages only (`dist.isend` / `dist.irecv`, or `send` / `recv` ordered so that they cannot deadlock): no collective (`all_reduce`, `all_gather`, `broadcast`, ...).
# * Bandwidth: no rank may send more than 2(N-1)·⌈n/N⌉ elements for n = `x.numel()` (gathering
#   everything at one rank sends far more).
# * The same function works unchanged with the NCCL backend, on CUDA tensors with one GPU per rank
#   (graded on a node with two GPUs): make every tensor you create on `x`'s device
#   (`torch.empty_like(...)`, `x.new_empty(...)` or `device=x.device`).

# %% [solution] id=ring_all_reduce_impl
def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    flat = x.reshape(-1).clone()
    chunks = list(torch.tensor_split(flat, world))  # views of flat
    right, left = (rank + 1) % world, (rank - 1) % world
    for s in range(world - 1):  # reduce-scatter
        out_idx, in_idx = (rank - s) % world, (rank - s - 1) % world
        incoming = torch.empty_like(chunks[in_idx])
        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(incoming, left)]
        for req in reqs:
            req.wait()
        chunks[in_idx].add_(incoming)
    for s in range(world - 1):  # all-gather
        out_idx, in_idx = (rank + 1 - s) % world, (rank - s) % world
        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(chunks[in_idx], left)]
        for req in reqs:
            req.wait()
    return flat.view(x.shape)
    ### END SOLUTION

# %% [tests] id=ring_all_reduce_tests points=4
def _ring_all_reduce_rank(rank):
    x = torch.arange(7.0) * (rank + 1)
    return ring_all_reduce(x), x


for _n in (2, 3):
    _got = launch(_ring_all_reduce_rank, _n, [(r,) for r in range(_n)])
    _want = torch.arange(7.0) * sum(range(1, _n + 1))
    for _r in range(_n):
        expect_close(_got[_r][0], _want, f"ring_all_reduce(arange(7) * (rank + 1)) on rank {_r} of {_n}")
        expect_equal(_got[_r][1], torch.arange(7.0) * (_r + 1), f"x on rank {_r} after the call (unchanged)")
### BEGIN HIDDEN TESTS
run_hidden("15-08", "ring_all_reduce", globals())
### END HIDDEN TESTS

# %% [markdown]
# How fast is it? The demo times your ring against gloo's own `dist.all_reduce` on 4 ranks. On one machine
# the "links" are memory copies through the kernel's loopback device, so do not expect the ring to win:
# gloo's implementation is a tuned C++ ring (or halving-doubling) without Python overhead per step. The
# ratio tells you what the Python loop and the extra copies cost. (On a loaded two-core laptop we measured
# ratios between 2 and 5 for 1 K to 4 M elements on 4 ranks.)

# %%
def _time_all_reduce(numel, repeats):
    x = torch.randn(numel)
    ours = theirs = 0.0
    for _ in range(repeats):
        dist.barrier()
        t0 = time.perf_counter()
        ring_all_reduce(x)
        ours += time.perf_counter() - t0
        y = x.clone()
        dist.barrier()
        t0 = time.perf_counter()
        dist.all_reduce(y)
        theirs += time.perf_counter() - t0
    return ours / repeats, theirs / repeats


if run_demos():
    from tqdm.auto import tqdm

    for numel in tqdm([2**10, 2**16, 2**20, 2**22], desc="all-reduce sizes"):
        ours, theirs = launch(_time_all_reduce, 4, [(numel, 5)] * 4, timeout=300)[0]
        print(f"n = {numel:>8}: ring {1e3 * ours:8.2f} ms, dist.all_reduce {1e3 * theirs:8.2f} ms, "
              f"ratio {ours / theirs:5.2f}")

# %% [markdown]
# ## 4. Broadcast along a tree
#
# `broadcast(x, src)` copies the root's tensor to every rank; DDP uses it once at start-up so that all
# replicas begin with the same weights. Sending from the root to each rank in turn takes N-1 rounds, and
# a chain (0 → 1 → 2 → ...) is no better. A **binomial tree** doubles the number of ranks that have the
# data in every round: after round k, 2^k ranks have it, so ⌈log2 N⌉ rounds suffice.
#
# Work with ranks *relative to the root*, `v = (rank - src) % N`, so any root looks like root 0. In the
# standard schedule, rank v ≠ 0 receives once, from `v - m`, where m is the lowest set bit of v. Then every
# rank (the root included) sends to `v + m'` for each power of two m' below its own m (below the first
# power of two ≥ N for the root), largest first, whenever `v + m'` < N. Translate back with
# `(v' + src) % N`.

# %% [markdown]
# ### Exercise 3 · `tree_broadcast` (3 points)
#
# `tree_broadcast(x, src)` runs on every rank of the default group. On every rank `x` is a contiguous
# tensor of the same shape and dtype: on rank `src` it holds the data, on every other rank arbitrary contents.
#
# * Overwrite `x` in place with the root's values on every rank, and return `x`.
# * Use `dist.send` / `dist.recv` (or `isend` / `irecv`) only: no collective.
# * Every rank except `src` receives exactly one message (the whole tensor), and `src` receives none.
# * Along the messages, no rank is more than ⌈log2 N⌉ hops from `src` (a chain 0 → 1 → 2 → 3 does not
#   qualify).
# * No rank sends more than ⌈log2 N⌉ messages (a root that sends to every rank itself does not qualify).
# * Make every tensor you create on `x`'s device (`torch.empty_like(x)` or `device=x.device`): the same code
#   runs with NCCL, where `x` lives on `cuda:rank`.

# %% [solution] id=tree_broadcast_impl
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    mask = 1
    while mask < world:
        if v & mask:
            dist.recv(x, (v - mask + src) % world)
            break
        mask <<= 1
    mask >>= 1
    while mask > 0:
        if v + mask < world:
            dist.send(x, (v + mask + src) % world)
        mask >>= 1
    return x
    ### END SOLUTION

# %% [tests] id=tree_broadcast_tests points=3
def _tree_broadcast_rank(rank, src):
    x = torch.arange(5) * 7 if rank == src else torch.zeros(5, dtype=torch.long)
    out = tree_broadcast(x, src)
    return out, x


for _n, _src in ((2, 1), (3, 2)):
    _got = launch(_tree_broadcast_rank, _n, [(r, _src) for r in range(_n)])
    for _r in range(_n):
        expect_equal(_got[_r][0], torch.arange(5) * 7, f"tree_broadcast(x, src={_src}) on rank {_r} of {_n}")
        expect_equal(_got[_r][1], torch.arange(5) * 7, f"x itself on rank {_r} of {_n} (filled in place)")
### BEGIN HIDDEN TESTS
run_hidden("15-08", "tree_broadcast", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Shards: all-gather and reduce-scatter for uneven lengths
#
# FSDP keeps only a **shard** of every parameter on each rank. Before a layer runs, the ranks
# **all-gather** the shards into the full parameter; after backward they **reduce-scatter** the full
# gradients, so that each rank ends up with the summed gradient of just its own shard. (An all-reduce
# is exactly a reduce-scatter followed by an all-gather: the two phases of your ring.)
#
# gloo's `dist.all_gather(list_of_outputs, t)` and `dist.reduce_scatter(out, list_of_inputs)` want
# tensors of **equal size** on every rank, but a parameter of 10 elements on 4 ranks gives shards of
# 3, 3, 2 and 2. The fix FSDP uses: pad every shard to the longest one, run the collective, and cut the
# padding off again. Here the shards follow `torch.tensor_split(flat, N)`: shard r of a flat tensor of
# length n has `n // N + (1 if r < n % N else 0)` elements.

# %%
_flat = torch.arange(10)
print([s.tolist() for s in torch.tensor_split(_flat, 4)])

# %% [markdown]
# ### Exercise 4 · `gather_shards` and `reduce_scatter_shards` (4 points)
#
# Both run on every rank of the default group (N ≥ 1 ranks: with one rank, the only shard is the whole
# tensor); gloo's collectives may do the communication.
#
# * `gather_shards(shard, numel)`: `shard` is this rank's piece `torch.tensor_split(flat, N)[rank]` of a
#   1-D tensor `flat` of length `numel` (`numel` may be smaller than N, so some shards are empty). Return
#   `flat` itself, with `shard`'s dtype, on every rank.
# * `reduce_scatter_shards(full)`: `full` is a 1-D tensor of the same length and dtype on every rank.
#   Return this rank's shard, `torch.tensor_split(total, N)[rank]`, of the sum `total` of `full` over all
#   ranks, with `full`'s dtype.
# * Neither function modifies its input, and each call returns a new tensor (not memory that an earlier call
#   returned: a workspace kept between calls would be overwritten by the next call).
# * Make every tensor you create on the input's device (`shard.new_zeros(...)`, `torch.empty_like(full)` or
#   `device=full.device`): the same code runs with NCCL, where the input lives on `cuda:rank`.

# %% [solution] id=shards_impl
def _shard_sizes(numel: int, world: int) -> list[int]:
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard: torch.Tensor, numel: int) -> torch.Tensor:
    ### BEGIN SOLUTION
    world = dist.get_world_size()
    sizes = _shard_sizes(numel, world)
    padded = shard.new_zeros(max(sizes))
    padded[: shard.numel()] = shard
    pieces = [torch.empty_like(padded) for _ in range(world)]
    dist.all_gather(pieces, padded)
    return torch.cat([piece[:size] for piece, size in zip(pieces, sizes)])
    ### END SOLUTION


def reduce_scatter_shards(full: torch.Tensor) -> torch.Tensor:
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    sizes = _shard_sizes(full.numel(), world)
    longest = max(sizes)
    inputs = []
    for piece in torch.tensor_split(full, world):
        padded = full.new_zeros(longest)
        padded[: piece.numel()] = piece
        inputs.append(padded)
    out = full.new_empty(longest)
    dist.reduce_scatter(out, inputs)
    return out[: sizes[rank]]
    ### END SOLUTION

# %% [tests] id=shards_tests points=4
def _shards_rank(rank, world):
    flat = torch.arange(10.0)
    full = torch.arange(10.0) + rank
    return gather_shards(torch.tensor_split(flat, world)[rank], 10), reduce_scatter_shards(full)


_got = launch(_shards_rank, 4, [(r, 4) for r in range(4)])
_total = sum(torch.arange(10.0) + r for r in range(4))
for _r in range(4):
    expect_equal(_got[_r][0], torch.arange(10.0), f"gather_shards on rank {_r} of 4 (shards of 3, 3, 2, 2)")
    expect_equal(_got[_r][1], torch.tensor_split(_total, 4)[_r], f"reduce_scatter_shards on rank {_r} of 4")
### BEGIN HIDDEN TESTS
run_hidden("15-08", "shards", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Process groups
#
# Every collective runs on a **process group**; without `group=` it is the default group of all ranks.
# `dist.new_group(ranks)` makes a smaller one, for example the ranks that hold the same shard in hybrid
# sharding, or one pipeline stage. Two rules trip everybody up:
#
# * `new_group` is itself a collective over the **whole world**: every rank must call it, for every group,
#   in the same order, even for groups it is not a member of. Groups are numbered in creation order; if
#   rank 0 creates group A first and rank 1 creates group B first, they disagree about which is which.
# * Ranks inside a group keep their global numbers for `dist.get_rank()`; `dist.get_rank(group)` gives
#   the rank within the group. A rank that is not a member gets a placeholder back and must not use it.

# %% [markdown]
# ### Exercise 5 · `group_sums` (3 points)
#
# `groups` is a list of disjoint lists of global ranks that together cover every rank of the default
# group once, for example `[[0, 2], [1, 3]]` or `[[3], [2, 0, 1]]`; every rank passes the same `groups`.
#
# * Create one group per entry with `dist.new_group`, on every rank, in the order of `groups`.
# * Return the element-wise sum of `x` over the ranks of this rank's own group, computed with
#   `dist.all_reduce` on that group (a group of one rank returns a copy of its `x`).
# * Return a new tensor of `x`'s shape, dtype and device; leave `x` unchanged.

# %% [solution] id=group_sums_impl
def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:
    ### BEGIN SOLUTION
    rank = dist.get_rank()
    mine = None
    for ranks in groups:
        group = dist.new_group(ranks)
        if rank in ranks:
            mine = group
    out = x.clone()
    dist.all_reduce(out, group=mine)
    return out
    ### END SOLUTION

# %% [tests] id=group_sums_tests points=3
def _group_sums_rank(rank, groups):
    x = torch.full((3,), 10.0 ** rank)
    return group_sums(x, groups), x


_groups = [[0, 2], [1, 3]]
_got = launch(_group_sums_rank, 4, [(r, _groups) for r in range(4)])
for _r in range(4):
    _mine = next(g for g in _groups if _r in g)
    expect_equal(_got[_r][0], torch.full((3,), sum(10.0 ** q for q in _mine)),
                 f"group_sums(x, {_groups}) on rank {_r}, x = 10**rank")
    expect_equal(_got[_r][1], torch.full((3,), 10.0 ** _r), f"x on rank {_r} after the call (unchanged)")
### BEGIN HIDDEN TESTS
run_hidden("15-08", "group_sums", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 7. Putting it together: one data-parallel step on CIFAR-10, and NCCL
#
# DDP in four lines: every rank starts from the same weights (a broadcast), computes gradients on its own
# slice of the batch, all-reduces them and divides by N. The result must equal the gradient of the mean
# loss over the whole batch, computed in one process. The demo checks exactly that with your
# `tree_broadcast` and `ring_all_reduce` on CIFAR-10 (or its synthetic stand-in).
#
# **NCCL.** On GPUs the backend is `"nccl"`: the same calls, but tensors live on `cuda:rank`, each process
# owns one device (`torch.cuda.set_device(rank)`), and collectives are *asynchronous on the GPU stream*:
# the call returns once the work is queued. NCCL runs rings and trees much like yours, inside CUDA
# kernels, over NVLink or InfiniBand. `ReduceOp.AVG` exists only there; with gloo, sum and divide.
# A forked child cannot use CUDA once the parent has initialised it, which is why GPU jobs start fresh
# processes (`torchrun`, `mp.spawn`) rather than forking.

# %%
def _ddp_step(rank, world, state, xb, yb):
    torch.manual_seed(rank)  # different weights on every rank, until the broadcast
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, 10))
    if rank == 0:
        model.load_state_dict(state)
    for p in model.parameters():
        tree_broadcast(p.data, 0)
    mine = torch.tensor_split(torch.arange(len(xb)), world)[rank]
    loss = torch.nn.functional.cross_entropy(model(xb[mine]), yb[mine], reduction="sum") / len(xb)
    loss.backward()
    return [ring_all_reduce(p.grad) for p in model.parameters()]


if run_demos():
    from course.student.data import load

    data = load("cifar10", train=True)
    xb = torch.stack([data[i][0] for i in range(64)])
    yb = torch.tensor([data[i][1] for i in range(64)])
    torch.manual_seed(0)
    ref = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, 10))
    torch.nn.functional.cross_entropy(ref(xb), yb).backward()
    grads = launch(_ddp_step, 4, [(r, 4, ref.state_dict(), xb, yb) for r in range(4)], timeout=120)
    for r in range(4):
        err = max(float((g - p.grad).abs().max()) for g, p in zip(grads[r], ref.parameters()))
        print(f"rank {r}: largest difference from the one-process gradient {err:.2e}")

# %% [markdown]
# ## Summary
#
# * Blocking `send`/`recv` rendezvous: order them (even/odd) or use `isend`/`irecv` and `wait()`.
# * The ring all-reduce sends 2(N-1)/N of the data per rank, whatever N is: a reduce-scatter then an
#   all-gather. Gathering at a root makes the root send N-1 times as much.
# * A binomial tree broadcasts in ⌈log2 N⌉ rounds.
# * FSDP's collectives pad uneven shards to equal length and trim afterwards.
# * `new_group` is called by every rank for every group, in the same order.
#
# Module 16 builds DDP and FSDP on exactly these pieces: bucketing gradients into flat tensors, overlapping
# the all-reduce with backward, and sharding optimizer state.
