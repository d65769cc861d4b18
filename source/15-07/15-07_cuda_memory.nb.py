# %% [markdown]
# # 15-07 · CUDA memory management and GPU internals
#
# `torch.randn(4096, 4096, device="cuda")` looks like one line of work. Beneath it, PyTorch asks its
# **caching allocator** for 64 MiB, the allocator decides whether it already holds a free piece of GPU memory
# that fits or must call `cudaMalloc`, and the kernel that fills the tensor then streams those bytes through a
# hierarchy of memories whose speeds differ by two orders of magnitude. When a training run dies with
# `CUDA out of memory` although `nvidia-smi` says gigabytes are free, the explanation is almost always in
# one of these layers.
#
# **You will build**
# 1. `round_size`, `allocation_pool`, `segment_size`: the size rules of PyTorch's CUDA caching allocator.
# 2. `CachingAllocatorModel` / `simulate`: a model of the allocator that predicts `memory_allocated`,
#    `memory_reserved` and segment counts for any allocation trace, `empty_cache` included. It runs on a
#    CPU; on a GPU you can check it against the real `torch.cuda.memory_stats()`.
# 3. `summarize_snapshot` and `will_oom`: read a `torch.cuda.memory_snapshot()`, measure fragmentation, and
#    predict whether a request fails even though "enough" memory is free.
# 4. `time_op`: correct timing of asynchronous GPU work with CUDA events, used for the pinned-memory and
#    stream-overlap experiments.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks. Hidden checks replay many
# allocation traces (hand-made ones shipped with the course, a realistic CIFAR-10 training step, and random
# ones) and compare your predictions with the allocator's rules; on a GPU node they also replay the traces
# on the device and compare with the live statistics. Demos only run when you run the notebook yourself. Keep
# the `def` and `class` lines of the skeletons as they are (the parameters' names, their order and their
# defaults): a hidden check compares them, and a parameter you add must come after them, with a default.
#
# **Validate runs only the visible checks.** "Success!" means your code passes the examples in the
# test cells, not that it earns full marks: grading runs many more hidden checks on the same functions.

# %%
# Setup: course helpers and device. Runs on CPU or GPU; GPU-only demos say so and skip themselves.
import math
import time

import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm.auto import tqdm

from course.student.checks import expect, expect_equal
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
HAS_CUDA = DEVICE.type == "cuda"
_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 1. The memory hierarchy: where bytes live while a kernel runs
#
# A GPU is a few dozen to a hundred-odd *streaming multiprocessors* (SMs), each running thousands of threads.
# The data those threads touch sits in layers that trade size for speed (numbers are for an A100 / H100
# class GPU, rounded):
#
# | level | where | size | bandwidth | who manages it |
# |---|---|---|---|---|
# | registers | inside each SM | 256 KiB per SM | ~tens of TB/s total | the compiler |
# | shared memory / L1 | inside each SM | up to ~228 KiB per SM | ~10-20 TB/s total | the kernel author (shared) / hardware (L1) |
# | L2 cache | on chip, shared by all SMs | 40-50 MiB | ~5-10 TB/s | hardware |
# | HBM ("GPU memory") | stacked next to the die | 40-141 GB | 1.5-4.8 TB/s | **the caching allocator**, then the kernels |
# | host RAM over PCIe / NVLink-C2C | the CPU side | hundreds of GB | 25-64 GB/s (PCIe 4/5) | you: `.to(device)` |
#
# Three consequences you will meet again and again:
#
# * **Most deep-learning kernels are memory-bound.** An elementwise op on `n` float32 values reads and writes
#   `8n` bytes and does `n` flops: at ~3 TB/s and ~60 TFLOP/s (float32, no tensor cores) moving the bytes
#   takes ~2.7 ps per element and the arithmetic ~0.017 ps, so the kernel waits on HBM over 100 times longer
#   than it computes. Fusing ops (FlashAttention, `torch.compile`) keeps intermediates in registers/shared memory
#   instead of taking a round trip through HBM.
# * **Small working sets are faster.** A tensor that fits in L2 (tens of MiB) is re-read at L2 speed; the
#   bandwidth curve below drops when the working set outgrows the cache.
# * **The host link is the narrowest pipe by far**, ~50-100x slower than HBM. Sections 6-7 are about hiding it.
#
# The *capacity* of HBM is what "CUDA out of memory" is about, and PyTorch manages it with the caching
# allocator, the subject of most of this notebook.
#
# The demo measures copy bandwidth as a function of the working-set size. On a GPU it times
# `dst.copy_(src)` with CUDA events and you should see the L2 plateau; on a CPU it does the same with a wall
# clock on one core and you see the CPU's own cache hierarchy (L1/L2/L3 vs DRAM) - the same physics at a
# smaller scale.

# %%
def copy_bandwidth(nbytes: int, device: torch.device, repeats: int = 20) -> float:
    """GB/s moved by dst.copy_(src) for float32 buffers of nbytes each (read + write counted)."""
    n = max(1, nbytes // 4)
    src = torch.rand(n, device=device)
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    if device.type == "cuda":
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeats):
            dst.copy_(src)
        end.record()
        torch.cuda.synchronize()
        seconds = start.elapsed_time(end) / 1000
    else:
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # one core: we want its caches, not thread start-up costs
        try:
            seconds = math.inf
            for _ in range(3):  # best of three: other processes on the machine only ever slow us down
                t0 = time.perf_counter()
                for _ in range(repeats):
                    dst.copy_(src)
                seconds = min(seconds, time.perf_counter() - t0)
        finally:
            torch.set_num_threads(threads)
    return 2 * n * 4 * repeats / seconds / 1e9


if run_demos():
    sizes = [2**k for k in range(14, 29 if HAS_CUDA else 27)]  # 16 KiB .. 256 MiB (64 MiB on CPU)
    bw = [copy_bandwidth(s, DEVICE, repeats=20 if s < 2**24 else 5) for s in tqdm(sizes, desc="bandwidth sweep")]
    plt.figure(figsize=(6, 3.2))
    plt.semilogx([s / 2**20 for s in sizes], bw, "o-")
    plt.xlabel("buffer size (MiB, each of src and dst)")
    plt.ylabel("copy bandwidth (GB/s)")
    plt.title(f"copy bandwidth vs working set on {DEVICE.type.upper()}")
    plt.grid(alpha=0.3)
    plt.show()
    if HAS_CUDA:
        props = torch.cuda.get_device_properties(DEVICE)
        print(f"{props.name}: {props.multi_processor_count} SMs, "
              f"L2 {getattr(props, 'L2_cache_size', 0) / 2**20:.0f} MiB, HBM {props.total_memory / 2**30:.0f} GiB")

# %% [markdown]
# ## 2. Why PyTorch caches GPU memory
#
# `cudaMalloc` and `cudaFree` are expensive: each can take from microseconds to milliseconds, and `cudaFree`
# synchronizes the whole device. A training step allocates and frees hundreds of tensors, so calling them
# directly would dominate the step time. PyTorch therefore puts a **caching allocator** in between:
#
# * It obtains memory from CUDA in big chunks called **segments** (one `cudaMalloc` each).
# * It hands out pieces of a segment, called **blocks**, to tensors. A segment may be **split** into several
#   blocks, some in use ("active"/"allocated"), some free.
# * When a tensor dies, its block is **not** returned to CUDA. It goes back into the allocator's cache and the
#   next request that fits reuses it. Free neighbours inside a segment **merge** back into one block.
# * Only `torch.cuda.empty_cache()` (or an allocation that would otherwise fail) returns memory to CUDA, and
#   it can only return **whole segments with no block in use**.
#
# Two numbers describe the state, and confusing them is the most common mistake:
#
# * `torch.cuda.memory_allocated()` = the bytes of all blocks currently handed to tensors
#   (`memory_stats()["allocated_bytes.all.current"]`).
# * `torch.cuda.memory_reserved()` = the bytes of all segments the allocator holds, in use or cached
#   (`memory_stats()["reserved_bytes.all.current"]`). Always `reserved >= allocated`.
#
# ### The rules (from `c10/cuda/CUDACachingAllocator.cpp`, default settings)
#
# 1. **Rounding.** A request of `n` bytes becomes a block of `round_size(n)` bytes: `n` rounded **up** to a
#    multiple of 512, and at least 512. A 1-byte tensor occupies 512 bytes; so does a 512-byte one; 513 bytes
#    take 1024.
# 2. **Two pools.** Rounded sizes up to and including 1 MiB (1,048,576 bytes) are served from the **small
#    pool**; larger ones from the **large pool**. A block is only ever reused by a request of its own pool.
# 3. **Segment sizes** (the size of a new `cudaMalloc`, used when no cached block fits):
#    * small pool: a 2 MiB segment (so up to 4096 blocks of 512 bytes share it);
#    * large pool, rounded size below 10 MiB: a **20 MiB** segment, so several 1-10 MiB tensors can share one;
#    * large pool, rounded size of 10 MiB or more: exactly the rounded size, rounded up to a multiple of 2 MiB.
# 4. **Best fit.** Before allocating a new segment, the allocator looks for the **smallest free cached block in
#    the request's pool whose size is at least the rounded size**. If several free blocks tie on size, it takes
#    the lowest address; in our model that means the block in the oldest segment (segments are numbered in the
#    order they were created), then the lowest offset inside it.
# 5. **Splitting.** The chosen block (cached or a fresh segment) is split into [the request | the remainder]
#    if the remainder is worth keeping: in the small pool if it is at least 512 bytes, in the **large pool only
#    if it is more than 1 MiB**. Otherwise the request gets the **whole block**, and the whole block counts in
#    `memory_allocated`. (Ask for 19 MiB and you are handed a 20 MiB block: allocated grows by 20 MiB.)
# 6. **Freeing** makes the block free and merges it with a free block directly before and/or after it in the
#    same segment.
# 7. **`empty_cache`** releases every segment that consists of a single free block (nothing in it in use) and
#    keeps all others, however much free space they contain.
# 8. A request of **0 bytes** never reaches the allocator: nothing changes.
#
# This is a **simplified model**: the real allocator also tracks CUDA streams (a freed block is only reused
# on the stream that allocated it), the `max_split_size_mb`, `roundup_power2_divisions` and
# `expandable_segments` options, CUDA-graph private pools, and what happens when `cudaMalloc` itself fails.
# We leave all of these out (they are off by default, and our traces use one stream).
#
# ### Why `nvidia-smi` and `memory_allocated` disagree
#
# `nvidia-smi` shows what the *driver* has handed to your process. That is
# `memory_reserved()` (all segments, including cached free blocks) **plus** the CUDA context itself
# (typically 300-600 MiB for kernels, cuBLAS/cuDNN handles and workspaces), **plus** anything allocated
# outside PyTorch's allocator (NCCL buffers, other libraries). `memory_allocated()` sees only the tensors.
# So `nvidia-smi` is always the largest number, `memory_reserved()` next, `memory_allocated()` smallest, and
# after `del big_tensor` only the last one drops.

# %% [markdown]
# ## Exercise 1: the size rules
#
# Implement rules 1-3. All three functions take the *requested* size `nbytes` (an int >= 1) and must apply
# the rounding themselves.
#
# * `round_size(nbytes)` -> the block size in bytes.
# * `allocation_pool(nbytes)` -> `"small"` or `"large"`.
# * `segment_size(nbytes)` -> the size of the segment that would be created if no cached block fits.

# %% [solution] id=size_rules_impl
KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512            # kMinBlockSize: every block is a multiple of this
SMALL_SIZE = 1 * MiB       # kSmallSize: largest rounded size served by the small pool
SMALL_BUFFER = 2 * MiB     # kSmallBuffer: size of a small-pool segment
LARGE_BUFFER = 20 * MiB    # kLargeBuffer: segment for large requests below MIN_LARGE_ALLOC
MIN_LARGE_ALLOC = 10 * MiB  # kMinLargeAlloc
ROUND_LARGE = 2 * MiB      # kRoundLarge: bigger requests get their own segment, rounded to this


def round_size(nbytes: int) -> int:
    """Block size for a request of nbytes (>= 1): rounded up to a multiple of 512, at least 512."""
    ### BEGIN SOLUTION
    if nbytes < MIN_BLOCK:
        return MIN_BLOCK
    return MIN_BLOCK * ((nbytes + MIN_BLOCK - 1) // MIN_BLOCK)
    ### END SOLUTION


def allocation_pool(nbytes: int) -> str:
    """'small' if the rounded size is at most 1 MiB, else 'large'."""
    ### BEGIN SOLUTION
    return "small" if round_size(nbytes) <= SMALL_SIZE else "large"
    ### END SOLUTION


def segment_size(nbytes: int) -> int:
    """Size of the new segment (one cudaMalloc) a request of nbytes creates when nothing cached fits."""
    ### BEGIN SOLUTION
    size = round_size(nbytes)
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE)
    ### END SOLUTION


# %% [tests] id=size_rules_tests points=3
for _n, _want in ((1, 512), (512, 512), (513, 1024)):
    expect_equal(round_size(_n), _want, f"round_size({_n})")
for _n, _want in ((1 * MiB, "small"), (1 * MiB + 1, "large")):
    expect_equal(allocation_pool(_n), _want, f"allocation_pool({_n})")
for _n, _want in ((100, 2 * MiB), (5 * MiB, 20 * MiB), (11 * MiB, 12 * MiB)):
    expect_equal(segment_size(_n), _want, f"segment_size({_n})")
### BEGIN HIDDEN TESTS
run_hidden("15-07", "size_rules", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 2: a model of the caching allocator
#
# Now put rules 4-8 together. `CachingAllocatorModel` keeps a list of segments; each segment is a list of
# blocks ordered by offset, each block either free or owned by a named tensor. Implement:
#
# * `malloc(name, nbytes)`: best fit in the right pool (rule 4), else a new segment (rule 3); then split or
#   not (rule 5). Zero bytes: nothing happens, but remember the name so that `free(name)` works.
# * `free(name)`: free the block and merge it with free neighbours in its segment (rule 6).
# * `empty_cache()`: drop segments that are one free block (rule 7).
# * `stats()`: a dict with four ints, `allocated` (bytes of blocks in use), `reserved` (bytes of all segments),
#   `small_segments` and `large_segments` (segment counts per pool) - the model's versions of
#   `allocated_bytes.all.current`, `reserved_bytes.all.current`, `segment.small_pool.current` and
#   `segment.large_pool.current` in `torch.cuda.memory_stats()`.
#
# `simulate(trace)` (given) runs a trace of ops `("alloc", name, nbytes)`, `("free", name)` and
# `("empty_cache",)` and returns the stats after each op. Any other op raises an exception that
# names it (the given code raises `ValueError`). You may restructure everything (other data structures, no classes
# at all) as long as `simulate` keeps its contract.
#
# A worked example you can check by hand: `alloc a 3 MiB` -> one 20 MiB large segment split into
# [a: 3 MiB | free: 17 MiB]; allocated 3 MiB, reserved 20 MiB. `alloc b 4 MiB` reuses the 17 MiB block
# (best fit), splitting it again: allocated 7 MiB, reserved still 20 MiB. `free a`: allocated 4 MiB, reserved
# 20 MiB. `empty_cache`: nothing released, because `b` still lives in that segment.

# %% [solution] id=allocator_impl
from dataclasses import dataclass, field


@dataclass
class Block:
    offset: int          # position inside its segment, in bytes
    size: int            # bytes
    owner: object = None  # the tensor's name while in use, None while free


@dataclass
class Segment:
    sid: int             # creation order: 0 for the first segment ever created, then 1, 2, ...
    pool: str            # "small" or "large"
    size: int
    blocks: list = field(default_factory=list)  # Blocks ordered by offset, covering the whole segment


class CachingAllocatorModel:
    """A single-stream model of PyTorch's CUDA caching allocator (rules 1-8 above)."""

    def __init__(self):
        ### BEGIN SOLUTION
        self.segments = []   # live segments, in creation order
        self.where = {}      # name -> (Segment, Block), or None for a 0-byte tensor
        self.next_sid = 0
        ### END SOLUTION

    def malloc(self, name, nbytes: int) -> None:
        ### BEGIN SOLUTION
        if nbytes == 0:
            self.where[name] = None
            return
        size, pool = round_size(nbytes), allocation_pool(nbytes)
        best = None
        for seg in self.segments:
            if seg.pool != pool:
                continue
            for blk in seg.blocks:
                if blk.owner is None and blk.size >= size:
                    key = (blk.size, seg.sid, blk.offset)
                    if best is None or key < best[0]:
                        best = (key, seg, blk)
        if best is None:
            seg = Segment(self.next_sid, pool, segment_size(nbytes))
            self.next_sid += 1
            seg.blocks.append(Block(0, seg.size))
            self.segments.append(seg)
            blk = seg.blocks[0]
        else:
            _, seg, blk = best
        remainder = blk.size - size
        split = remainder >= MIN_BLOCK if pool == "small" else remainder > SMALL_SIZE
        if split:
            seg.blocks.insert(seg.blocks.index(blk) + 1, Block(blk.offset + size, remainder))
            blk.size = size
        blk.owner = name
        self.where[name] = (seg, blk)
        ### END SOLUTION

    def free(self, name) -> None:
        ### BEGIN SOLUTION
        entry = self.where.pop(name)
        if entry is None:
            return
        seg, blk = entry
        blk.owner = None
        i = seg.blocks.index(blk)
        if i + 1 < len(seg.blocks) and seg.blocks[i + 1].owner is None:   # merge with the next block
            blk.size += seg.blocks.pop(i + 1).size
        if i > 0 and seg.blocks[i - 1].owner is None:                      # merge into the previous block
            seg.blocks[i - 1].size += seg.blocks.pop(i).size
        ### END SOLUTION

    def empty_cache(self) -> None:
        ### BEGIN SOLUTION
        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]
        ### END SOLUTION

    def stats(self) -> dict:
        ### BEGIN SOLUTION
        return {
            "allocated": sum(b.size for s in self.segments for b in s.blocks if b.owner is not None),
            "reserved": sum(s.size for s in self.segments),
            "small_segments": sum(1 for s in self.segments if s.pool == "small"),
            "large_segments": sum(1 for s in self.segments if s.pool == "large"),
        }
        ### END SOLUTION


def simulate(trace):
    """Statistics after each op of trace: a list of dicts with allocated, reserved, small_segments,
    large_segments. Ops: ("alloc", name, nbytes), ("free", name), ("empty_cache",)."""
    model = CachingAllocatorModel()
    out = []
    for op in trace:
        if op[0] == "alloc":
            model.malloc(op[1], op[2])
        elif op[0] == "free":
            model.free(op[1])
        elif op[0] == "empty_cache":
            model.empty_cache()
        else:
            raise ValueError(f"unknown op {op!r}")
        out.append(model.stats())
    return out


# %% [tests] id=allocator_model_tests points=6
_s = simulate([("alloc", "a", 3 * MiB), ("alloc", "b", 4 * MiB), ("free", "a")])
expect_equal(_s[0], {"allocated": 3 * MiB, "reserved": 20 * MiB, "small_segments": 0, "large_segments": 1},
             "the stats after alloc a (3 MiB)")
expect_equal((_s[1]["allocated"], _s[1]["reserved"]), (7 * MiB, 20 * MiB), "(allocated, reserved) after alloc b (4 MiB)")
expect_equal((_s[2]["allocated"], _s[2]["reserved"]), (4 * MiB, 20 * MiB), "(allocated, reserved) after free a")
expect_equal(simulate([("alloc", "x", 19 * MiB)])[0]["allocated"], 20 * MiB,
             "allocated after a 19 MiB alloc (a remainder of 1 MiB is not split off)")
### BEGIN HIDDEN TESTS
run_hidden("15-07", "allocator_model", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### What `empty_cache` can and cannot do
#
# These checks exercise the `empty_cache` method you wrote above. Think about the trace below before you run
# it: a 30 MiB tensor is freed, and a 3 MiB tensor then *reuses* that cached 30 MiB block (best fit beats a new
# 20 MiB segment). After `empty_cache` the reserved memory is still 30 MiB: a 3 MiB tensor pins a 30 MiB
# segment. This is why `empty_cache` is not a fix for fragmentation; it only returns segments that are
# completely unused (and it makes the next allocations slower, because they must `cudaMalloc` again).

# %% [tests] id=empty_cache_tests points=3
_s = simulate([("alloc", "A", 30 * MiB), ("free", "A"), ("alloc", "B", 3 * MiB), ("empty_cache",),
               ("free", "B"), ("empty_cache",)])
expect_equal((_s[3]["allocated"], _s[3]["reserved"]), (3 * MiB, 30 * MiB),
             "(allocated, reserved) after empty_cache while B lives in the 30 MiB segment")
expect_equal(_s[5], {"allocated": 0, "reserved": 0, "small_segments": 0, "large_segments": 0},
             "the stats after free B and empty_cache")
### BEGIN HIDDEN TESTS
run_hidden("15-07", "empty_cache", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. A real allocation trace: one CIFAR-10 training step
#
# Where does a trace come from? On a GPU, `torch.cuda.memory._record_memory_history()` records every
# allocation and free (and `torch.cuda.memory._dump_snapshot("x.pickle")` lets you explore it at
# <https://pytorch.org/memory_viz>). On any device we can record a trace ourselves: a
# `TorchDispatchMode` sees every operator call, so it sees each freshly created storage, and a `weakref`
# finalizer tells us when that storage dies. Feeding the trace to your model shows what the CUDA allocator
# would do with the same workload: `allocated` rises through the forward pass (activations are kept for
# backward), falls during backward, and `reserved` stays at its high-water mark until `empty_cache`.

# %%
import weakref

from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten


class AllocationTracer(TorchDispatchMode):
    """Records ("alloc", name, nbytes) for each new storage an op creates and ("free", name) when it dies."""

    def __init__(self):
        super().__init__()
        self.ops, self.live, self.count, self.recording = [], set(), 0, False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                self._track(t.untyped_storage())
        return out

    def _track(self, storage):
        key = storage.data_ptr()
        if storage.nbytes() == 0 or key in self.live:
            return  # a view or an in-place result: no new memory
        name = f"s{self.count}"
        self.count += 1
        self.live.add(key)
        self.ops.append(("alloc", name, storage.nbytes()))
        weakref.finalize(storage, self._freed, key, name)

    def _freed(self, key, name):
        self.live.discard(key)
        if self.recording:
            self.ops.append(("free", name))

    def __enter__(self):
        self.recording = True
        return super().__enter__()

    def __exit__(self, *exc):
        self.recording = False  # storages that die later (after the trace ends) are not recorded
        return super().__exit__(*exc)


def small_cifar_cnn():
    return nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(64 * 8 * 8, 10))


def trace_training_steps(batch_size: int = 128, steps: int = 2):
    from course.student.data import load
    data = load("cifar10", train=True)
    loader = torch.utils.data.DataLoader(data, batch_size=batch_size, shuffle=True)
    batches = [b for _, b in zip(range(steps), loader)]  # data loading is not part of the trace
    model = small_cifar_cnn()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    tracer = AllocationTracer()
    with tracer:
        for x_cpu, y_cpu in batches:
            x, y = x_cpu.clone(), y_cpu.clone()  # stands in for the copy to the GPU
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            del x, y, loss
        tracer.ops.append(("empty_cache",))
    return list(tracer.ops)


if run_demos():
    trace = trace_training_steps()
    n_alloc = sum(op[0] == "alloc" for op in trace)
    print(f"recorded {len(trace)} ops ({n_alloc} allocations) for 2 training steps")
    try:
        stats = simulate(trace)
        plt.figure(figsize=(7, 3.2))
        plt.plot([s["allocated"] / MiB for s in stats], label="allocated (model)")
        plt.plot([s["reserved"] / MiB for s in stats], label="reserved (model)")
        plt.xlabel("op index")
        plt.ylabel("MiB")
        plt.title("caching-allocator model on a CIFAR-10 CNN, batch 128")
        plt.legend()
        plt.grid(alpha=0.3)
        plt.show()
        peak = max(s["reserved"] for s in stats)
        print(f"peak allocated {max(s['allocated'] for s in stats) / MiB:.1f} MiB, peak reserved "
              f"{peak / MiB:.1f} MiB, segments at the end before empty_cache: "
              f"{stats[-2]['small_segments']} small + {stats[-2]['large_segments']} large")
    except NotImplementedError:
        print("Finish Exercise 2 to see the model's prediction for this trace.")

# %% [markdown]
# On a GPU you can check the model against the real thing: replay the same trace with
# `torch.empty(n, dtype=torch.uint8, device="cuda")` for each alloc and `del` for each free, reading
# `torch.cuda.memory_stats()` after every op. Run it in a fresh process (as the cell does), so that the
# allocator starts empty, and without `PYTORCH_CUDA_ALLOC_CONF` settings that change the rules.

# %%
REPLAY_SCRIPT = r"""
import json, sys, torch
ops = json.load(sys.stdin)
keys = {"allocated": "allocated_bytes.all.current", "reserved": "reserved_bytes.all.current",
        "small_segments": "segment.small_pool.current", "large_segments": "segment.large_pool.current"}
live, out = {}, []
for op in ops:
    if op[0] == "alloc":
        live[op[1]] = torch.empty(int(op[2]), dtype=torch.uint8, device="cuda")
    elif op[0] == "free":
        del live[op[1]]
    else:
        torch.cuda.empty_cache()
    s = torch.cuda.memory_stats()
    out.append({k: int(s.get(v, 0)) for k, v in keys.items()})
print(json.dumps(out))
"""


def replay_on_gpu(trace):
    import json
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF")}
    env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:False"
    r = subprocess.run([sys.executable, "-c", REPLAY_SCRIPT], input=json.dumps(trace), capture_output=True,
                       text=True, env=env, timeout=300)
    if r.returncode != 0:
        raise RuntimeError(r.stderr[-800:])
    return json.loads(r.stdout)


if run_demos():
    if HAS_CUDA:
        live = replay_on_gpu([list(op) for op in trace])
        try:
            mismatches = [i for i, (a, b) in enumerate(zip(simulate(trace), live)) if a != b]
            print(f"model vs live memory_stats: {len(trace) - len(mismatches)} of {len(trace)} ops agree"
                  + (f"; first difference at op {mismatches[0]}: {trace[mismatches[0]]}" if mismatches else ""))
        except NotImplementedError:
            print("Finish Exercise 2 to compare the model with the GPU.")
    else:
        print("No GPU here: the live replay is skipped (the hidden checks do it on a GPU node).")

# %% [markdown]
# ## 4. Fragmentation and out-of-memory debugging
#
# `torch.cuda.OutOfMemoryError` reads like *"Tried to allocate 12.00 MiB. GPU 0 has a total capacity of
# 79.1 GiB of which 10.0 MiB is free. ... 62.1 GiB is allocated by PyTorch, and 16.8 GiB is reserved by
# PyTorch but unallocated."* Sixteen gigabytes cached and free, yet a 12 MiB request fails. How?
#
# When no cached block fits, the allocator follows this sequence (default settings):
#
# 1. best fit among the cached free blocks of the request's pool (rule 4);
# 2. otherwise `cudaMalloc(segment_size)`; if the device has that much free memory, done;
# 3. otherwise release **every fully free cached segment** (what `empty_cache` would release, both pools) and
#    retry `cudaMalloc` once;
# 4. otherwise raise `OutOfMemoryError`.
#
# The "reserved but unallocated" memory that cannot help is the free space inside segments that still hold
# a live block: holes too small for the request, or the wrong pool. That is **fragmentation**. A standard
# measure is `1 - largest_free_block / total_free_cached`: 0 when all cached free memory is one block,
# close to 1 when it is shattered into many small holes.
#
# To see it on a GPU, `torch.cuda.memory_snapshot()` returns a list of segments, each a dict with (among
# others) `"segment_type"` (`"small"`/`"large"`), `"total_size"`, `"allocated_size"` and `"blocks"`, a list of
# dicts with `"size"` and `"state"`. A block's state is `"active_allocated"` (a tensor uses it),
# `"inactive"` (free and cached), or `"active_pending_free"` (freed by the program but still in use by a
# kernel on another stream: neither allocated nor reusable yet).
#
# **Fixes**, from least to most invasive:
# * **reorder** allocations: allocate long-lived big tensors first, so short-lived ones do not pin segments;
#   reuse buffers of a fixed size (pad variable-length batches to a few bucket sizes);
# * `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`: segments become one growable virtual address range
#   per stream, so there are no gaps between segments and freed pages can be unmapped;
# * `PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:N`: blocks larger than N MiB are never split, so big cached
#   blocks are not nibbled by small requests and can be released to satisfy a big one;
# * and of course: less memory (smaller batch, activation checkpointing, mixed precision - module 16).
#
# ## Exercise 3: read a snapshot, predict an OOM
#
# * `summarize_snapshot(segments)` -> dict with ints `reserved` (sum of `total_size`), `allocated` (sum of
#   `"active_allocated"` block sizes), `cached_free` (sum of `"inactive"` block sizes),
#   `largest_free_block` (largest `"inactive"` block, 0 if none), `releasable` (total size of segments in
#   which every block is `"inactive"`), and the float `fragmentation` = `1 - largest_free_block / cached_free`
#   (0.0 when `cached_free` is 0).
# * `will_oom(segments, device_free, nbytes)` -> `True` if the allocator would raise `OutOfMemoryError` for a
#   request of `nbytes`, following steps 1-4 above, where `device_free` is the memory CUDA still has for new
#   segments. A 0-byte request never fails. Only `"inactive"` blocks can be reused, and only by requests of
#   their own pool (`segment_type`).
#
# Both functions only read `segments`: they leave the snapshot they are given unchanged.

# %% [solution] id=oom_impl
def summarize_snapshot(segments) -> dict:
    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
    ### BEGIN SOLUTION
    reserved = sum(s["total_size"] for s in segments)
    allocated = sum(b["size"] for s in segments for b in s["blocks"] if b["state"] == "active_allocated")
    free_sizes = [b["size"] for s in segments for b in s["blocks"] if b["state"] == "inactive"]
    cached_free = sum(free_sizes)
    largest = max(free_sizes, default=0)
    releasable = sum(s["total_size"] for s in segments if all(b["state"] == "inactive" for b in s["blocks"]))
    return {"reserved": reserved, "allocated": allocated, "cached_free": cached_free,
            "largest_free_block": largest, "releasable": releasable,
            "fragmentation": 0.0 if cached_free == 0 else 1.0 - largest / cached_free}
    ### END SOLUTION


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
    ### BEGIN SOLUTION
    if nbytes == 0:
        return False
    size, pool = round_size(nbytes), allocation_pool(nbytes)
    for s in segments:
        if s["segment_type"] == pool and any(b["state"] == "inactive" and b["size"] >= size for b in s["blocks"]):
            return False                                    # 1. served from the cache
    need = segment_size(nbytes)
    if need <= device_free:
        return False                                        # 2. cudaMalloc succeeds
    releasable = summarize_snapshot(segments)["releasable"]
    return need > device_free + releasable                  # 3. release free segments, retry; 4. OOM
    ### END SOLUTION


# %% [tests] id=oom_tests points=4
_seg = lambda kind, *blocks: {"segment_type": kind, "total_size": sum(b[0] for b in blocks),
                              "allocated_size": sum(b[0] for b in blocks if b[1] == "active_allocated"),
                              "blocks": [{"size": b[0], "state": b[1]} for b in blocks]}
_snap = [_seg("large", (9 * MiB, "inactive"), (2 * MiB, "active_allocated"), (9 * MiB, "inactive")),
         _seg("small", (2 * MiB, "inactive"))]
_r = summarize_snapshot(_snap)
for _k, _want in (("reserved", 22 * MiB), ("allocated", 2 * MiB), ("cached_free", 20 * MiB),
                  ("largest_free_block", 9 * MiB), ("releasable", 2 * MiB)):
    expect_equal(_r[_k], _want, f"summarize_snapshot(snapshot)['{_k}']")
expect(abs(_r["fragmentation"] - (1 - 9 / 20)) < 1e-9,
       f"fragmentation = 1 - largest free block / cached free = {1 - 9 / 20}, got {_r['fragmentation']}")
expect(will_oom(_snap, device_free=5 * MiB, nbytes=12 * MiB),
       "will_oom for 12 MiB with 5 MiB free on the device (20 MiB free in the cache, but no 12 MiB hole)")
expect(not will_oom(_snap, device_free=0, nbytes=8 * MiB), "no OOM for 8 MiB: it fits a 9 MiB hole")
### BEGIN HIDDEN TESTS
run_hidden("15-07", "oom_diagnosis", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### The fragmentation trap, in the model
#
# A workload that alternates big short-lived buffers with small long-lived ones (think: a 9 MiB activation,
# then a 1.5 MiB statistic that is kept) leaves every 20 MiB segment pinned by one small live block. Below,
# the cache holds over 100 MiB of free memory, but no hole is larger than 9.5 MiB: a 12 MiB request needs a new
# segment and fails on a nearly full device. Allocating the long-lived blocks first (reordering) packs them
# into one segment and leaves whole segments free, which step 3 can release.

# %%
def snapshot_from_model(model) -> list:
    """The model's state as a memory_snapshot()-style list (uses the solution's data structures)."""
    return [{"segment_type": s.pool, "total_size": s.size,
             "allocated_size": sum(b.size for b in s.blocks if b.owner is not None),
             "blocks": [{"size": b.size, "state": "inactive" if b.owner is None else "active_allocated"}
                        for b in s.blocks]} for s in model.segments]


def run_workload(order: str, n: int = 6):
    m = CachingAllocatorModel()
    if order == "interleaved":
        for i in range(n):
            m.malloc(f"act{i}", 9 * MiB)
            m.malloc(f"stat{i}", 3 * MiB // 2)
            m.malloc(f"act{i}b", 9 * MiB)
    else:  # long-lived first
        for i in range(n):
            m.malloc(f"stat{i}", 3 * MiB // 2)
        for i in range(n):
            m.malloc(f"act{i}", 9 * MiB)
            m.malloc(f"act{i}b", 9 * MiB)
    for i in range(n):
        m.free(f"act{i}")
        m.free(f"act{i}b")
    return snapshot_from_model(m)


if run_demos():
    try:
        for order in ("interleaved", "long-lived first"):
            snap = run_workload(order)
            r = summarize_snapshot(snap)
            print(f"{order:17}: reserved {r['reserved'] / MiB:6.1f} MiB, allocated {r['allocated'] / MiB:5.1f} MiB, "
                  f"cached free {r['cached_free'] / MiB:6.1f} MiB, largest hole {r['largest_free_block'] / MiB:5.1f} "
                  f"MiB, fragmentation {r['fragmentation']:.2f}, releasable {r['releasable'] / MiB:5.1f} MiB, "
                  f"12 MiB with 4 MiB device free -> OOM: {will_oom(snap, 4 * MiB, 12 * MiB)}")
    except (NotImplementedError, AttributeError):
        print("Finish Exercises 2 and 3 to run this comparison.")

# %% [markdown]
# On a GPU you can provoke the real thing by capping the memory PyTorch may use with
# `torch.cuda.set_per_process_memory_fraction`. The demo runs the interleaved workload under a cap, catches
# the `OutOfMemoryError`, and prints what `memory_stats` says at that moment: large "reserved but
# unallocated" memory, many `inactive_split` blocks. Rerun the notebook with
# `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` set before Python starts and the same workload fits.

# %%
if run_demos():
    if HAS_CUDA:
        torch.cuda.empty_cache()
        base = torch.cuda.memory_reserved()
        total = torch.cuda.get_device_properties(DEVICE).total_memory
        torch.cuda.set_per_process_memory_fraction(min(1.0, (base + 140 * MiB) / total))
        keep, tmp = [], []
        try:
            for i in range(6):
                tmp.append(torch.empty(9 * MiB, dtype=torch.uint8, device=DEVICE))
                keep.append(torch.empty(3 * MiB // 2, dtype=torch.uint8, device=DEVICE))
                tmp.append(torch.empty(9 * MiB, dtype=torch.uint8, device=DEVICE))
            tmp.clear()
            big = torch.empty(40 * MiB, dtype=torch.uint8, device=DEVICE)
            print("no OOM (expandable segments on, or a different cap): the 40 MiB request fit")
            del big
        except torch.cuda.OutOfMemoryError as e:
            s = torch.cuda.memory_stats()
            print("OutOfMemoryError:", str(e).split(".")[0])
            print(f"reserved {s['reserved_bytes.all.current'] / MiB:.1f} MiB, allocated "
                  f"{s['allocated_bytes.all.current'] / MiB:.1f} MiB, inactive split blocks "
                  f"{s['inactive_split.all.current']} ({s['inactive_split_bytes.all.current'] / MiB:.1f} MiB)")
            r = summarize_snapshot(torch.cuda.memory_snapshot())
            print(f"snapshot: largest free block {r['largest_free_block'] / MiB:.1f} MiB, "
                  f"fragmentation {r['fragmentation']:.2f}")
        finally:
            keep.clear()
            tmp.clear()
            torch.cuda.set_per_process_memory_fraction(1.0)
            torch.cuda.empty_cache()
    else:
        print("No GPU here: the live OOM demo is skipped.")

# %% [markdown]
# ## 5. Timing asynchronous GPU work
#
# A CUDA kernel launch returns to Python as soon as the kernel is *queued*. `t0 = time.time(); y = a @ b;
# time.time() - t0` therefore measures the launch (microseconds), not the matmul. Correct GPU timing:
#
# * **warm up** first: the first calls pay for cuBLAS heuristics, kernel loading and the allocator's first
#   `cudaMalloc`s;
# * put **CUDA events** in the stream around the work: `start.record()`, the calls, `end.record()`, then
#   `torch.cuda.synchronize()` (or `end.synchronize()`) and `start.elapsed_time(end)` gives milliseconds
#   measured on the GPU's own clock;
# * or, with a wall clock, call `torch.cuda.synchronize()` before starting and before stopping it.
#
# ## Exercise 4: `time_op`
#
# `time_op(fn, warmup=3, iters=10, device="cpu")` calls `fn()` `warmup` times untimed, then `iters` times
# timed, and returns the **mean milliseconds per call** as a float. `device` is a string or `torch.device`,
# and it alone picks the clock: for CUDA time as above (CUDA events, or a wall clock with
# `torch.cuda.synchronize()` before starting and before stopping it); for the CPU use `time.perf_counter()`,
# also on a machine with a GPU. `fn` must be called exactly `warmup + iters` times, just as the caller would
# call it: in the caller's grad mode, with the caller's thread count (`torch.get_num_threads()`) and
# random-number state (PyTorch's generators, Python's `random`, NumPy's). `time_op` changes none of these
# itself (no `no_grad`, `set_num_threads` or `manual_seed` of its own), so the caller finds them as `fn` left
# them. It leaves the caching allocator alone too (no `torch.cuda.empty_cache()`: that would make the timed
# calls pay the `cudaMalloc`s the warm-up took).

# %% [solution] id=timing_impl
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    ### BEGIN SOLUTION
    device = torch.device(device)
    for _ in range(warmup):
        fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / iters
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t0) * 1000 / iters
    ### END SOLUTION


# %% [tests] id=timing_tests points=3
_calls = []
_ms = time_op(lambda: (_calls.append(1), time.sleep(0.01)), warmup=2, iters=3, device="cpu")
expect_equal(len(_calls), 5, "the number of calls for warmup=2, iters=3")
expect(8 <= _ms <= 100, f"about 10 ms per call, in milliseconds; got {_ms}")
### BEGIN HIDDEN TESTS
run_hidden("15-07", "cuda_timing", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Pinned memory and asynchronous copies
#
# Ordinary ("pageable") host memory can be swapped out by the operating system, so the GPU's DMA engine may
# not read it directly: CUDA first copies it into an internal pinned staging buffer, and `x.to("cuda")`
# returns only after the copy is done. **Pinned** (page-locked) memory (`x.pin_memory()`, or
# `DataLoader(pin_memory=True)`) can be read by the DMA engine directly, which
#
# * is faster (no staging copy; often 1.5-2x the bandwidth), and
# * allows `x.to("cuda", non_blocking=True)` to return **immediately** and copy in the background, overlapping
#   with kernels that are already queued or with Python work on the CPU.
#
# `non_blocking=True` on pageable memory is not an error, but it silently behaves like a blocking copy. Pinned
# memory is a limited resource (it cannot be swapped): pin batches, not your whole data set. PyTorch caches
# pinned host memory too (`torch.cuda.memory.host_memory_stats()`), with its own caching host allocator.
#
# ## 7. CUDA streams: overlapping transfer and compute
#
# A **stream** is a queue of GPU work executed in order; work in *different* streams may run concurrently.
# Everything above ran on the default stream, so a copy waits for the previous kernel and vice versa. With a
# second stream the copy engine can fetch batch `i+1` while the SMs compute on batch `i`:
#
# ```python
# copy_stream = torch.cuda.Stream()
# with torch.cuda.stream(copy_stream):
#     nxt = cpu_batch.pin_memory().to("cuda", non_blocking=True)   # queued on copy_stream
# ...                                                             # compute on the current batch meanwhile
# torch.cuda.current_stream().wait_stream(copy_stream)            # compute must not read nxt too early
# nxt.record_stream(torch.cuda.current_stream())                  # tell the allocator nxt is used there
# ```
#
# The last two lines are the ones people forget. `wait_stream` makes the compute stream wait for the copy.
# `record_stream` is about the **allocator**: `nxt` was allocated on `copy_stream`, and a block freed from
# one stream is only reused for that stream (that is the "streams" rule our model left out). Without
# `record_stream`, when `nxt` dies the allocator may hand its block to a new copy on `copy_stream` while a
# kernel on the compute stream is still reading it: silent data corruption.
#
# The demo times (with your `time_op`) host-to-device copies from pageable and pinned CIFAR-10 batches, and
# a copy+compute loop with and without a side stream. On a CPU there is nothing to overlap, and it says so.

# %%
def copy_then_compute(batches, weight, side_stream=None):
    """Move each CPU batch to the GPU and run a matmul on it; with side_stream, prefetch the next batch."""
    out = []
    if side_stream is None:
        for b in batches:
            out.append((b.to(weight.device, non_blocking=True).flatten(1) @ weight).sum())
        return out
    main = torch.cuda.current_stream()
    with torch.cuda.stream(side_stream):
        nxt = batches[0].to(weight.device, non_blocking=True)
    for i in range(len(batches)):
        main.wait_stream(side_stream)
        cur = nxt
        cur.record_stream(main)
        if i + 1 < len(batches):
            with torch.cuda.stream(side_stream):
                nxt = batches[i + 1].to(weight.device, non_blocking=True)
        out.append((cur.flatten(1) @ weight).sum())
    return out


if run_demos():
    if HAS_CUDA:
        from course.student.data import load
        data = load("cifar10", train=True)
        xs = torch.stack([data[i][0] for i in range(2048)])          # 2048 x 3 x 32 x 32 float32 = 24 MiB
        pageable, pinned = xs.clone(), xs.pin_memory()
        for name, src in (("pageable", pageable), ("pinned", pinned)):
            ms = time_op(lambda: src.to(DEVICE, non_blocking=True), warmup=3, iters=20, device=DEVICE)
            print(f"{name:8} host->device: {ms:.3f} ms per 24 MiB batch = {xs.nbytes / ms / 1e6:.1f} GB/s")
        batches = [pinned[i:i + 256] for i in range(0, 2048, 256)] * 4
        weight = torch.randn(3 * 32 * 32, 4096, device=DEVICE)
        side = torch.cuda.Stream()
        for label, stream in (("one stream", None), ("copy on a side stream", side)):
            ms = time_op(lambda: copy_then_compute(batches, weight, stream), warmup=2, iters=5, device=DEVICE)
            print(f"{label:22}: {ms:.2f} ms for {len(batches)} batches")
        ref_sum = sum(float(v) for v in copy_then_compute(batches, weight))
        side_sum = sum(float(v) for v in copy_then_compute(batches, weight, side))
        print(f"same results with and without the side stream: {math.isclose(ref_sum, side_sum, rel_tol=1e-4)}")
    else:
        print("No GPU here: pinned-memory and stream-overlap timings need CUDA (run this notebook on a GPU node).")

# %% [markdown]
# ## Summary
#
# * The GPU's memory hierarchy spans ~100x in bandwidth from registers to HBM and another ~50x to the host:
#   most kernels are memory-bound, and the host link must be hidden behind compute.
# * PyTorch's caching allocator rounds requests to 512 bytes, serves <= 1 MiB from 2 MiB small segments,
#   1-10 MiB from shared 20 MiB segments, and bigger requests from 2 MiB-rounded segments; it reuses the
#   best-fitting cached block, splits only when the remainder is worth it, merges free neighbours, and gives
#   memory back only for wholly free segments (`empty_cache`).
# * `memory_allocated <= memory_reserved <= nvidia-smi`: tensors, plus cache, plus CUDA context and
#   non-PyTorch allocations.
# * An OOM with lots of "reserved but unallocated" memory is fragmentation: diagnose it with
#   `memory_stats` (`inactive_split*`) and `memory_snapshot`, fix it by reordering or fixed-size buffers,
#   `expandable_segments:True`, or `max_split_size_mb`.
# * Time GPU work with warm-up and CUDA events; copy from pinned memory with `non_blocking=True`, and overlap
#   copies with compute on a side stream, using `wait_stream` and `record_stream`.
