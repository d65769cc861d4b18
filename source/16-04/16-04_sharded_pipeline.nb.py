# %% [markdown]
# # 16-04 · Sharded data parallel and pipeline schedules
#
# Plain data parallelism (DDP) keeps a **full copy** of everything on every rank: the parameters, their
# gradients and the optimizer's state. With AdamW in float32 that is 4 + 4 + 8 = 16 bytes for every
# parameter, on every rank, however many ranks you add. More ranks make training faster, never smaller.
#
# Two ideas get around that wall:
#
# * **Sharding (ZeRO, FSDP).** The ranks still see different data, but each one *owns* only a 1/W slice of
#   the training state and borrows the rest from the others when it needs it. ZeRO stage 1 shards the
#   optimizer state, stage 2 the gradients as well, stage 3 the parameters too (FSDP is stage 3).
# * **Pipelining (GPipe, 1F1B).** Cut the model into S consecutive stages, one per rank, and stream
#   micro-batches through them. The price is the *bubble*: time steps in which a stage has nothing to do.
#
# Both are built from the primitives of 15-08 (all-reduce, reduce-scatter, all-gather, send and
# receive); here you use gloo's own collectives and concentrate on what is sharded, when it moves, and
# what it costs.
#
# **You will build**
# 1. `flatten_shard` and `unflatten_shards`: one flat, padded buffer for a list of tensors of uneven
#    sizes, cut into W equal shards, and back (FSDP's "flat parameter").
# 2. `zero1_step`: an AdamW step in which each rank keeps the optimizer state of its own shard only.
# 3. `zero2_step`: the same step with the gradients reduce-scattered, so that each rank only ever holds
#    the averaged gradient of its shard, and less data travels.
# 4. `zero3_step`: a training step of a layered model whose parameters are sharded too, each layer's
#    gathered just before it runs and freed right after (FSDP).
# 5. `gpipe_schedule`, `one_f_one_b_schedule` and `bubble_fraction`: the two classic pipeline schedules as
#    lists of operations, and what fraction of the machine they leave idle.
# 6. `pipeline_grads`: a model split into two stages on two ranks, activations and their gradients sent
#    between them micro-batch by micro-batch, with the unsplit model's gradients as the result.
#
# Everything runs on CPU with the **gloo** backend: each rank is a process forked from this notebook.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full marks.
# When you submit, hidden checks run your functions on 2, 3 and 4 ranks, with parameter counts that the
# world size does not divide, several steps, float32 and float64, compare the parameters with a
# single-process `torch.optim.AdamW` run that the grader computes itself, look at how much state each rank
# keeps, and **count what every rank sends**. A deadlock fails its check after a timeout. Heavy demos only
# run when you run the notebook yourself. Keep the `def` and `class` lines of the skeletons as they are (the
# parameters' names, their order and their defaults): a hidden check compares them, and a parameter you add must
# come after them, with a default.

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
# ## 1. A launcher for W ranks
#
# As in 15-08, `launch(fn, W, args_per_rank)` forks W copies of this kernel, joins them into a fresh gloo
# group (a `FileStore` in a temporary folder is the rendezvous), runs `fn(*args_per_rank[r])` on rank r and
# returns the W results. Forking keeps the functions you define in this notebook visible to the ranks.
# A rank that hangs is killed after `timeout` seconds and you get an error naming it; a group that gloo
# could not connect (now and then, on a busy machine) is started again, three tries at most.

# %%
def _rank_entry(fn, rank, world, store_path, args, conn, op_timeout):
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    torch.set_num_threads(1)
    try:
        dist.init_process_group("gloo", store=dist.FileStore(store_path, world), rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=op_timeout))
    except Exception as exc:  # the group never formed: launch() starts every rank again
        reply = ("no group", f"{type(exc).__name__}: {str(exc)[:300]}")
    else:
        try:
            reply = ("ok", fn(*args))
        except BaseException as exc:
            if isinstance(exc, NotImplementedError) and not exc.args:  # an exercise not written yet
                reply = ("not written", traceback.extract_tb(exc.__traceback__)[-1].name)
            else:
                reply = ("error", f"{type(exc).__name__}: {str(exc)[:300]}")
    try:
        conn.send_bytes(pickle.dumps(reply))
    finally:
        conn.close()
        os._exit(0)


def launch(fn, world, args_per_rank=None, timeout=60.0, op_timeout=15.0):
    """Run fn(*args_per_rank[r]) on ranks r = 0..world-1 of a fresh gloo group; return the results."""
    args_per_rank = args_per_rank or [()] * world
    ctx = mp.get_context("fork")
    for _attempt in range(3):  # a group that never formed (it happens on a loaded machine) starts over
        with tempfile.TemporaryDirectory() as tmp:
            pipes, procs = [], []
            for rank in range(world):
                parent_end, child_end = ctx.Pipe(duplex=False)
                p = ctx.Process(target=_rank_entry, daemon=True, args=(fn, rank, world, os.path.join(tmp, "store"),
                                                                      tuple(args_per_rank[rank]), child_end,
                                                                      op_timeout))
                p.start()
                child_end.close()
                pipes.append(parent_end)
                procs.append(p)
            deadline = time.monotonic() + timeout
            results, hung = [None] * world, []
            for rank, conn in enumerate(pipes):
                if conn.poll(max(0.0, deadline - time.monotonic())):
                    try:
                        results[rank] = pickle.loads(conn.recv_bytes())
                    except EOFError:
                        results[rank] = ("error", "the process ended without a result")
                else:
                    hung.append(rank)
            for p in procs:
                p.join(timeout=1.0)
                if p.is_alive():
                    p.kill()
                    p.join()
        if hung or not any(status == "no group" for status, _ in results):
            break
    if hung:
        raise RuntimeError(f"ranks {hung} did not finish within {timeout} s (a deadlock?)")
    for rank, (status, value) in enumerate(results):
        if status == "no group":
            raise RuntimeError(f"rank {rank} could not join the gloo group three times: {value}")
        if status == "not written":
            raise NotImplementedError(f"rank {rank}: {value} is not written yet")
        if status == "error":
            raise RuntimeError(f"rank {rank} raised {value}")
    return [value for _, value in results]


print(launch(lambda: (dist.get_rank(), dist.get_world_size()), 2))

# %% [markdown]
# ## 2. One flat buffer, W equal shards
#
# A model's parameters are a list of tensors of very different sizes: a 512 x 512 weight, a bias of 512, a
# LayerNorm scale of 512. Sharding each tensor separately would give every rank many tiny, uneven pieces and
# one collective per tensor. FSDP instead **flattens** the parameters of a unit into one 1-D buffer (its
# `FlatParameter`), in a fixed order, and cuts that buffer into W pieces of **equal** length, padding the
# end with zeros when W does not divide the total. Equal pieces are what `dist.all_gather_single` and
# `dist.reduce_scatter_single` want, and the zeros cost nothing: their gradient is zero and AdamW leaves a zero
# parameter with zero gradient at zero.
#
# For n elements in all, each shard has `ceil(n / W)` elements and the padded buffer `W * ceil(n / W)`.
# Here is the layout for three tensors of 3, 4 and 2 elements on W = 4 ranks (n = 9, shards of 3, three
# zeros of padding):

# %%
_parts = [torch.arange(1.0, 4.0), torch.arange(4.0, 8.0).reshape(2, 2), torch.arange(8.0, 10.0)]
_flat = torch.cat([p.reshape(-1) for p in _parts])
_per = math.ceil(_flat.numel() / 4)
_padded = torch.cat([_flat, _flat.new_zeros(4 * _per - _flat.numel())])
print("flat  :", _flat.tolist())
print("shards:", [s.tolist() for s in _padded.split(_per)])

# %% [markdown]
# ### Exercise 1 · `flatten_shard` and `unflatten_shards` (3 points)
#
# * `flatten_shard(tensors, world, rank)`: `tensors` is a non-empty list of tensors of one dtype and one
#   device, of any shapes (0-d and empty tensors included) and any memory layout (they may be
#   non-contiguous).
# * Flatten each tensor in row-major order (as `t.reshape(-1)` reads it), concatenate them in list order
#   (a tensor object that stands in the list twice, as tied weights may, at each of its places) into a 1-D
#   tensor of n elements, pad it at the end with zeros to `world * ceil(n / world)` elements, and return the
#   piece of rank `rank` (0 ≤ `rank` < `world`): elements `rank * k` to `(rank + 1) * k - 1`, with
#   `k = ceil(n / world)`.
# * Return a new 1-D tensor (never a view of an input) with the inputs' dtype and device, and leave the
#   inputs unchanged.
# * `unflatten_shards(shards, shapes)` undoes it: `shards` is the list of what `flatten_shard` returned on
#   ranks 0, 1, ..., W-1 (in rank order) and `shapes` the shapes of the original tensors.
# * Return a list of new contiguous tensors, one per shape, holding the original values, with the shards'
#   dtype and device; the padding is dropped.
# * Make every tensor you create on the inputs' device (`t.new_zeros(...)` or `device=t.device`): the same
#   code runs on `cuda:rank` or the `meta` device.

# %% [solution] id=shard_impl
def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    ### BEGIN SOLUTION
    flat = torch.cat([t.reshape(-1) for t in tensors])
    k = -(-flat.numel() // world)
    padded = flat.new_zeros(world * k)
    padded[: flat.numel()] = flat
    return padded[rank * k:(rank + 1) * k].clone()
    ### END SOLUTION


def unflatten_shards(shards: list[torch.Tensor], shapes: list) -> list[torch.Tensor]:
    ### BEGIN SOLUTION
    flat = torch.cat([s.reshape(-1) for s in shards])
    out, start = [], 0
    for shape in shapes:
        size = math.prod(shape)
        out.append(flat[start:start + size].reshape(shape).clone())
        start += size
    return out
    ### END SOLUTION

# %% [tests] id=shard_tests points=3
_ts = [torch.arange(1.0, 4.0), torch.arange(4.0, 8.0).reshape(2, 2), torch.tensor(8.0)]
_sh = [flatten_shard(_ts, 3, r) for r in range(3)]
expect_equal(_sh[0], torch.tensor([1.0, 2.0, 3.0]), "flatten_shard(tensors of 3, 4 and 1 elements, 3, 0)")
expect_equal(_sh[2], torch.tensor([7.0, 8.0, 0.0]), "flatten_shard(tensors of 3, 4 and 1 elements, 3, 2)")
_back = unflatten_shards(_sh, [t.shape for t in _ts])
for _t, _b in zip(_ts, _back):
    expect_equal(_b, _t, f"unflatten_shards(...) for the tensor of shape {tuple(_t.shape)}")
### BEGIN HIDDEN TESTS
run_hidden("16-04", "shard", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. ZeRO stage 1: shard the optimizer state
#
# In data parallelism every rank computes gradients on its own slice of the batch; their **mean** over the
# W ranks is the gradient of the whole batch (for equal slices and a mean loss). DDP all-reduces the
# gradients and then every rank runs the same optimizer step on the same numbers: W identical copies of
# AdamW's two moment buffers, `exp_avg` and `exp_avg_sq`, each as large as the model.
#
# ZeRO-1 notices that every element's update only needs that element's parameter, gradient and moments.
# So rank r updates only **its shard** of the flat parameter, keeping moments for that shard alone (1/W of
# the state), and afterwards the ranks **all-gather** the updated shards so that everybody holds the full
# new parameters again. The step, written for one element with step count t (AdamW as `torch.optim.AdamW`
# computes it):
#
# $$p \leftarrow p\,(1 - \eta\lambda), \quad m \leftarrow \beta_1 m + (1-\beta_1) g, \quad
# v \leftarrow \beta_2 v + (1-\beta_2) g^2, \quad
# p \leftarrow p - \frac{\eta}{1-\beta_1^t}\,\frac{m}{\sqrt{v}\,/\sqrt{1-\beta_2^t} + \epsilon}.$$
#
# PyTorch ships this idea as `torch.distributed.optim.ZeroRedundancyOptimizer`, which assigns whole
# parameters to ranks (balanced by size) instead of cutting one flat buffer; the result is the same.

# %% [markdown]
# ### Exercise 2 · `zero1_step` (4 points)
#
# `zero1_step(params, state, lr, betas, eps, weight_decay)` runs on every rank of the default group (W ranks)
# and performs one AdamW step.
#
# * `params` is a list of leaf tensors that require grad (as `nn.Parameter`s do), of one floating dtype (float32
#   or float64) and uneven shapes (0-d, empty and non-contiguous ones included), holding the same values on
#   every rank; each has `.grad` set to this rank's own gradient.
# * After the call, every rank's `params` hold exactly what one step of `torch.optim.AdamW` (with these `lr`,
#   `betas`, `eps` and `weight_decay`) gives on a single process whose gradient is the **mean** of the W
#   ranks' gradients, and this holds after every call of a run of several steps.
# * The caller may change `lr` and `betas` between calls, as a scheduler does: each call uses its own values, as
#   `torch.optim.AdamW` uses its param group's current ones (bias corrections 1 - β₁ᵗ and 1 - β₂ᵗ with this
#   call's betas).
# * This holds at the edges of the float range too: AdamW scales the gradient before it squares it
#   (`v.mul_(β₂).addcmul_(g, g, value=1 - β₂)` computes ((1 - β₂)·g)·g), so a float32 gradient whose square
#   overflows (|g| above about 1.8e19) still gives a finite second moment; compute it in that order.
# * Average the gradients with `dist.all_reduce`.
# * `state` is a dict, empty on the first call, that the caller passes back on every later call on the
#   same rank: keep the step count and the moments there.
# * Keep moments for this rank's shard only (the shard of the flat parameter that `flatten_shard(params,
#   W, rank)` gives): the tensors in `state` hold at most 2·⌈n/W⌉ elements in all (n = total number of
#   parameter elements), plus at most one for a step count.
# * Bring the updated shards to every rank with `dist.all_gather` (or `dist.all_gather_single`).
# * Write the new values into the tensors of `params` in place (same tensor objects, same shapes, still leaves:
#   autograd must not record the update, so write under `torch.no_grad()`, a context that gives the caller back its
#   grad mode), and return None.
# * Make every tensor you create on the parameters' device: the same code runs with NCCL, where the
#   parameters live on `cuda:rank`.

# %% [solution] id=zero1_impl
def _adamw_shard(p, g, state, lr, betas, eps, weight_decay):
    # one AdamW step of the flat shard p with gradient g, moments in state (torch.optim.AdamW's formula)
    if "step" not in state:
        state["step"] = 0
        state["exp_avg"] = torch.zeros_like(p)
        state["exp_avg_sq"] = torch.zeros_like(p)
    state["step"] += 1
    t, (b1, b2) = state["step"], betas
    m, v = state["exp_avg"], state["exp_avg_sq"]
    p.mul_(1 - lr * weight_decay)
    m.lerp_(g, 1 - b1)
    v.mul_(b2).addcmul_(g, g, value=1 - b2)
    denom = (v.sqrt() / math.sqrt(1 - b2 ** t)).add_(eps)
    p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))


def _write_back(params, full):
    start = 0
    with torch.no_grad():
        for p in params:
            p.copy_(full[start:start + p.numel()].view_as(p))
            start += p.numel()


def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    grad = torch.cat([p.grad.reshape(-1) for p in params])
    dist.all_reduce(grad)
    grad /= world
    k = -(-grad.numel() // world)
    shard = flatten_shard([p.detach() for p in params], world, rank)
    g = flatten_shard([grad], world, rank)
    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)
    full = shard.new_empty(world * k)
    dist.all_gather_single(full, shard)
    _write_back(params, full)
    ### END SOLUTION

# %% [tests] id=zero1_tests points=4
def _zero_rank(step_fn, rank, world, steps):
    gen = torch.Generator().manual_seed(0)
    params = [torch.randn(3, 2, generator=gen), torch.randn(5, generator=gen)]
    state = {}
    for s in range(steps):
        for p in params:
            p.grad = torch.full_like(p, float(rank + 1 + s))
        step_fn(params, state, lr=0.1)
    return params, sum(t.numel() for t in state.values() if isinstance(t, torch.Tensor))


def _zero_expected(world, steps):
    gen = torch.Generator().manual_seed(0)
    params = [torch.randn(3, 2, generator=gen), torch.randn(5, generator=gen)]
    opt = torch.optim.AdamW(params, lr=0.1)
    for s in range(steps):
        for p in params:
            p.grad = torch.full_like(p, sum(r + 1 + s for r in range(world)) / world)
        opt.step()
    return params


_want = _zero_expected(2, 2)
_got = launch(_zero_rank, 2, [(zero1_step, r, 2, 2) for r in range(2)])
for _r in range(2):
    for _p, _w in zip(_got[_r][0], _want):
        expect_close(_p, _w, f"zero1_step: a parameter of shape {tuple(_w.shape)} on rank {_r} after 2 steps")
    expect(_got[_r][1] <= 2 * 6 + 1, f"zero1_step: rank {_r} keeps {_got[_r][1]} state elements for 11 parameters "
                                     f"on 2 ranks (at most 2 * 6 + 1 expected)")
### BEGIN HIDDEN TESTS
run_hidden("16-04", "zero1", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. ZeRO stage 2: reduce-scatter the gradients
#
# In stage 1 every rank still receives the **whole** averaged gradient from the all-reduce, and then uses
# only 1/W of it. Recall from 15-08 that an all-reduce *is* a reduce-scatter followed by an all-gather.
# ZeRO-2 stops after the first half: a **reduce-scatter** of the flat gradient leaves on rank r exactly the
# summed gradient of shard r, which is all that rank r's optimizer step needs. The full gradient never has
# to exist after backward, and the all-gather of the gradients is gone.
#
# Counting what a rank sends, for n elements (padded to W·k, k = ⌈n/W⌉) and the ring algorithms of 15-08:
#
# | per step | all-reduce of the gradient | reduce-scatter of the gradient | all-gather of the parameters | total |
# |---|---|---|---|---|
# | DDP | 2(W-1)·k | | | 2(W-1)·k |
# | ZeRO-1 | 2(W-1)·k | | (W-1)·k | 3(W-1)·k |
# | ZeRO-2 | | (W-1)·k | (W-1)·k | 2(W-1)·k |
#
# So ZeRO-2 moves exactly as much as DDP while keeping 1/W of the gradients and the optimizer state.

# %% [markdown]
# ### Exercise 3 · `zero2_step` (4 points)
#
# `zero2_step(params, state, lr, betas, eps, weight_decay)` has the same arguments, the same `state` rules
# and the same result as `zero1_step`: after every call of a run of several steps, every rank's `params`
# equal single-process `torch.optim.AdamW` on the mean gradient, written in place.
#
# * Flatten the gradients into one flat buffer padded as in Exercise 1 and **reduce-scatter** it
#   (`dist.reduce_scatter` or `dist.reduce_scatter_single`), so that each rank receives the summed
#   gradient of its own shard only; no `all_reduce` anywhere.
# * Then update this rank's shard (moments for that shard only) and all-gather the shards as before.
# * Bytes: the grader counts what each rank sends as the ring algorithms do (a reduce-scatter or an
#   all-gather whose per-rank piece has b bytes: (W-1)·b; an all-reduce of b bytes: 2(W-1)·b/W; a
#   point-to-point message: its size), and one call may send at most 2(W-1)·⌈n/W⌉ elements' worth.
# * Make every tensor you create on the parameters' device.

# %% [solution] id=zero2_impl
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    flat_grad = torch.cat([flatten_shard([p.grad for p in params], world, r) for r in range(world)])
    g = flat_grad.new_empty(flat_grad.numel() // world)
    dist.reduce_scatter_single(g, flat_grad)
    g /= world
    shard = flatten_shard([p.detach() for p in params], world, rank)
    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)
    full = shard.new_empty(flat_grad.numel())
    dist.all_gather_single(full, shard)
    _write_back(params, full)
    ### END SOLUTION

# %% [tests] id=zero2_tests points=4
_want = _zero_expected(2, 2)
_got = launch(_zero_rank, 2, [(zero2_step, r, 2, 2) for r in range(2)])
for _r in range(2):
    for _p, _w in zip(_got[_r][0], _want):
        expect_close(_p, _w, f"zero2_step: a parameter of shape {tuple(_w.shape)} on rank {_r} after 2 steps")
    expect(_got[_r][1] <= 2 * 6 + 1, f"zero2_step: rank {_r} keeps {_got[_r][1]} state elements for 11 parameters "
                                     f"on 2 ranks (at most 2 * 6 + 1 expected)")
### BEGIN HIDDEN TESTS
run_hidden("16-04", "zero2", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. ZeRO stage 3 (FSDP), and what each stage saves
#
# Stage 3 shards the parameters too: between steps a rank holds only its shard of each unit's flat
# parameter. Just before a unit's forward, the ranks all-gather its full parameter, run the unit, and
# **free** the gathered copy; backward gathers it again, computes the gradients, reduce-scatters them, and
# frees again. At any moment only the unit being computed is whole. That costs one more all-gather per
# step (3(W-1)·k in all) and buys memory: per rank, for P parameters and AdamW in float32,
#
# | | parameters | gradients | optimizer state | bytes per parameter |
# |---|---|---|---|---|
# | DDP | 4P | 4P | 8P | 16 |
# | ZeRO-1 | 4P | 4P | 8P/W | 8 + 8/W |
# | ZeRO-2 | 4P | 4P/W | 8P/W | 4 + 12/W |
# | ZeRO-3 | 4P/W | 4P/W | 8P/W | 16/W (+ one unit gathered) |
#
# Here a unit is one layer, and a layer is anything that computes its output from a list of parameter
# tensors and its input. `Layer` wraps such a function with the shapes of its parameters:

# %%
class Layer:
    """A layer as zero3_step sees it: layer(params, h), params a list of tensors of the shapes in .shapes."""

    def __init__(self, fn, shapes):
        self.fn, self.shapes = fn, [torch.Size(s) for s in shapes]

    def __call__(self, params, h):
        return self.fn(params, h)


def _linear_tanh(params, h):
    return torch.tanh(h @ params[0].T + params[1])


def _linear(params, h):
    return h @ params[0].T + params[1]

# %% [markdown]
# ### Exercise 4 · `zero3_step` (4 points)
#
# `zero3_step(layers, shards, x, y, loss_fn, state, lr, betas, eps, weight_decay)` runs on every rank of the
# default group (W ranks), called with grad mode on, and performs one ZeRO-3 training step of a model made of L
# layers.
#
# * `layers` is a list of L callables: `layers[i](params, h)` computes layer i's output from the list of its
#   full parameters (tensors of the shapes in `layers[i].shapes`) and its input `h`, differentiably. One object may
#   stand at several positions (two blocks of one kind): each position is a layer of its own, with its own shard.
# * `shards[i]` is this rank's shard of layer i's flat parameter (what `flatten_shard` gives for that layer's
#   parameters on this rank), a 1-D tensor that does not require grad; the full parameters are kept nowhere
#   else.
# * `x` and `y` are this rank's own slice of the batch (all slices of one size; `x` is floating point); the
#   model's output `h` is the last layer's output on `x`, and `loss_fn(h, y)` is the mean loss over the slice,
#   so the whole batch's gradient is the mean of the W ranks' gradients.
# * After the call, every rank's `shards` hold exactly what one step of `torch.optim.AdamW` (with these
#   `lr`, `betas`, `eps` and `weight_decay`) gives on a single process that trains the unsplit model on the
#   whole batch, and this holds after every call of a run of several steps. The caller may change `lr` and
#   `betas` between calls, as in Exercise 2: each call uses its own (bias corrections with this call's betas).
# * Forward: for i = 0, 1, ..., L-1, all-gather layer i's shard (one all-gather call), rebuild its
#   parameters (`unflatten_shards`), call `layers[i]` once on them and the previous layer's output, keep
#   that input for the backward, and drop the gathered parameters before the next all-gather.
# * Backward: for i = L-1, ..., 0, all-gather layer i's shard again (one all-gather call), call `layers[i]`
#   once on the rebuilt parameters and the input you kept, back-propagate through that call (for the last
#   layer, through `loss_fn` of its output), **reduce-scatter** the flat, padded gradient of layer i's
#   parameters, divide it by W, and drop the gathered parameters and the call's output before the next
#   all-gather.
# * So when `layers[i]` runs, no parameter gathered for another layer is still alive (the grader keeps weak
#   references to what every all-gather filled and every call received), and none is alive after the call
#   returns: keep no reference in a variable, in `state` or in an autograd graph.
# * No `all_reduce` anywhere; the grader counts what each rank sends as in Exercise 3: at most
#   3(W-1)·(k_0 + ... + k_{L-1}) elements' worth a call, with k_i = ⌈n_i/W⌉ for layer i's n_i elements.
# * `state` is a dict, empty on the first call, that the caller passes back on every later call on the same
#   rank: keep the step counts and the moments of this rank's shards there, at most 2·(k_0 + ... + k_{L-1})
#   elements in all plus one step count per layer.
# * Write the new values into the tensors of `shards` in place (same tensor objects, same memory), leave the grad
#   mode and the process's other global settings as you found them, also when a layer raises
#   (`with torch.no_grad():`, not `torch.set_grad_enabled(False)`), and return None.
# * Make every tensor you create on the shards' device.

# %% [solution] id=zero3_impl
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    ### BEGIN SOLUTION
    world = dist.get_world_size()

    def gather(i):
        pieces = [torch.empty_like(shards[i]) for _ in range(world)]
        dist.all_gather(pieces, shards[i])
        return unflatten_shards(pieces, layers[i].shapes)

    inputs, h = [], x
    with torch.no_grad():
        for i, layer in enumerate(layers):
            inputs.append(h)
            h = layer(gather(i), h)
    upstream = None
    for i in reversed(range(len(layers))):
        params = [p.requires_grad_() for p in gather(i)]
        h_in = inputs[i].detach().requires_grad_()
        out = layers[i](params, h_in)
        if upstream is None:
            out = loss_fn(out, y)
        grads = torch.autograd.grad(out, params + [h_in], upstream)
        del params, out
        upstream = grads[-1]
        full = torch.cat([flatten_shard(list(grads[:-1]), world, r) for r in range(world)])
        g = torch.empty_like(shards[i])
        dist.reduce_scatter_single(g, full)
        g /= world
        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)
    ### END SOLUTION

# %% [tests] id=zero3_tests points=4
_layers3 = [Layer(_linear_tanh, [(4, 3), (4,)]), Layer(_linear, [(2, 4), (2,)])]
_gen3 = torch.Generator().manual_seed(3)
_init3 = [[torch.randn(s, generator=_gen3) for s in layer.shapes] for layer in _layers3]
_x3, _y3 = torch.randn(4, 3, generator=_gen3), torch.randn(4, 2, generator=_gen3)


def _mse(h, y):
    return ((h - y) ** 2).mean()


def _zero3_rank(rank, world, steps):
    shards = [flatten_shard(ps, world, rank) for ps in _init3]
    state, b = {}, len(_x3) // world
    for _ in range(steps):
        zero3_step(_layers3, shards, _x3[rank * b:(rank + 1) * b], _y3[rank * b:(rank + 1) * b], _mse, state, lr=0.1)
    return shards


def _zero3_expected(steps):
    params = [[p.clone().requires_grad_() for p in ps] for ps in _init3]
    opt = torch.optim.AdamW([p for ps in params for p in ps], lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        h = _x3
        for layer, ps in zip(_layers3, params):
            h = layer(ps, h)
        _mse(h, _y3).backward()
        opt.step()
    return params


_want = _zero3_expected(2)
_got = launch(_zero3_rank, 2, [(r, 2, 2) for r in range(2)])
for _i, _ps in enumerate(_want):
    _back = unflatten_shards([_got[0][_i], _got[1][_i]], _layers3[_i].shapes)
    for _b, _w in zip(_back, _ps):
        expect_close(_b, _w.detach(), f"zero3_step: layer {_i}'s parameter of shape {tuple(_w.shape)} after 2 steps "
                                      f"on 2 ranks")
### BEGIN HIDDEN TESTS
run_hidden("16-04", "zero3", globals())
### END HIDDEN TESTS

# %% [markdown]
# The demo below checks your `zero1_step` against `ZeroRedundancyOptimizer` and plots the table above.

# %%
def _zero1_vs_pytorch(rank, world):
    from torch.distributed.optim import ZeroRedundancyOptimizer
    gen = torch.Generator().manual_seed(1)
    mine = [torch.randn(7, 3, generator=gen), torch.randn(5, generator=gen), torch.randn(2, 2, generator=gen)]
    theirs = [p.clone().requires_grad_() for p in mine]
    opt = ZeroRedundancyOptimizer(theirs, optimizer_class=torch.optim.AdamW, lr=0.05)
    state = {}
    for step in range(5):
        grads = [torch.randn(p.shape, generator=torch.Generator().manual_seed(100 * step + rank)) for p in mine]
        for p, q, g in zip(mine, theirs, grads):
            p.grad, q.grad = g.clone(), g / world  # ZeroRedundancyOptimizer does not average: give it g / W
        for q in theirs:  # ... and all-reduce as DDP would have done before its step
            dist.all_reduce(q.grad)
        zero1_step(mine, state, lr=0.05)
        opt.step()
    return max(float((p - q.detach()).abs().max()) for p, q in zip(mine, theirs))


if run_demos():
    print("zero1_step vs ZeroRedundancyOptimizer(AdamW), largest difference per rank:",
          launch(_zero1_vs_pytorch, 3, [(r, 3) for r in range(3)]))
    import matplotlib.pyplot as plt

    P, W = 1e9, 8
    rows = {"DDP": (4, 4, 8), "ZeRO-1": (4, 4, 8 / W), "ZeRO-2": (4, 4 / W, 8 / W), "ZeRO-3": (4 / W, 4 / W, 8 / W)}
    fig, ax = plt.subplots(figsize=(6, 3))
    bottom = [0.0] * 4
    for j, part in enumerate(("parameters", "gradients", "optimizer state")):
        vals = [P * r[j] / 2**30 for r in rows.values()]
        ax.bar(list(rows), vals, bottom=bottom, label=part)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set(ylabel="GiB per rank", title=f"1 B parameters, AdamW, float32, W = {W}")
    ax.legend()
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## 6. Pipeline schedules and the bubble
#
# Pipeline parallelism gives each of S ranks a consecutive slice of the layers (a **stage**). A batch is
# cut into M micro-batches; stage s can run the forward of micro-batch m once stage s-1 has sent it the
# activations, and the backward once stage s+1 has sent back the gradient. Write an operation as a tuple
# `(t, s, kind, m)`: during time step t, stage s runs the forward (`"F"`) or backward (`"B"`) of
# micro-batch m. In this notebook every operation takes exactly one time step, and:
#
# * **dependencies**: `F` of (s, m) for s > 0 needs `F` of (s-1, m) at an earlier step; `B` of (S-1, m)
#   needs `F` of (S-1, m) at an earlier step; `B` of (s, m) for s < S-1 needs `B` of (s+1, m) at an earlier
#   step;
# * a stage runs at most one operation per time step; time starts at 0.
#
# **GPipe** runs all forwards, then all backwards: simple, but stage 0 must keep the activations of all M
# micro-batches until their backwards come back. **1F1B** (one forward, one backward) starts backwards as
# soon as possible and caps how many micro-batches a stage has *in flight* (forward done, backward not):
# stage s holds at most S - s, whatever M is. Both finish in 2(M + S - 1) steps here, so both leave the same
# fraction of the S x T grid idle, the **bubble** (S - 1) / (M + S - 1): more micro-batches, smaller
# bubble. 1F1B's gain is memory, not time.

# %% [markdown]
# ### Exercise 5 · pipeline schedules (4 points)
#
# Each schedule function takes S ≥ 1 stages and M ≥ 1 micro-batches and returns a new list (the caller may
# change it) of tuples `(t, s, kind, m)` of Python ints and a one-letter string, sorted by time step, then stage.
#
# * `gpipe_schedule(S, M)`: at every time step, each stage runs its next forward (micro-batches in the order
#   0, 1, ..., M-1) if that forward's dependency is met; once all its M forwards are done, it runs its next
#   backward (again in the order 0, 1, ..., M-1) if that backward's dependency is met; otherwise it idles.
# * `one_f_one_b_schedule(S, M)`: at every time step, each stage runs its next backward (in the order 0, 1,
#   ..., M-1) if its dependency is met; otherwise its next forward, if that forward's dependency is met and
#   fewer than S - s micro-batches are in flight on stage s; otherwise it idles.
# * Both contain every forward and every backward of every stage exactly once and respect the dependencies
#   and the one-operation-per-stage-per-step rule above.
# * `bubble_fraction(schedule, S)`: for any list of such tuples (sorted or not), with T = 1 + the largest
#   time step in it, return the fraction of the S·T (stage, step) slots in which no operation runs, as a
#   Python float.

# %% [solution] id=schedule_impl
def _greedy(S, M, one_f_one_b):
    done, ops, nxt_f, nxt_b = set(), [], [0] * S, [0] * S
    t = 0
    while len(ops) < 2 * S * M:
        now = []
        for s in range(S):
            f, b = nxt_f[s], nxt_b[s]
            b_ready = b < M and (("B", s + 1, b) in done if s < S - 1 else ("F", s, b) in done)
            f_ready = f < M and (s == 0 or ("F", s - 1, f) in done)
            if one_f_one_b:
                f_ready = f_ready and f - b < S - s
            else:
                b_ready = b_ready and f == M
            if b_ready:
                now.append((t, s, "B", b))
                nxt_b[s] += 1
            elif f_ready:
                now.append((t, s, "F", f))
                nxt_f[s] += 1
        done.update((k, s, m) for _, s, k, m in now)
        ops += now
        t += 1
    return ops


def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    ### BEGIN SOLUTION
    return _greedy(S, M, one_f_one_b=False)
    ### END SOLUTION


def one_f_one_b_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    ### BEGIN SOLUTION
    return _greedy(S, M, one_f_one_b=True)
    ### END SOLUTION


def bubble_fraction(schedule: list, S: int) -> float:
    ### BEGIN SOLUTION
    T = 1 + max(t for t, _, _, _ in schedule)
    busy = len({(t, s) for t, s, _, _ in schedule})
    return 1.0 - busy / (S * T)
    ### END SOLUTION

# %% [tests] id=schedule_tests points=4
_g = gpipe_schedule(2, 2)
expect_equal(_g, [(0, 0, "F", 0), (1, 0, "F", 1), (1, 1, "F", 0), (2, 1, "F", 1), (3, 1, "B", 0), (4, 0, "B", 0),
                  (4, 1, "B", 1), (5, 0, "B", 1)], "gpipe_schedule(2, 2)")
_o = one_f_one_b_schedule(2, 3)
expect_equal(len(_o), 12, "the number of operations of one_f_one_b_schedule(2, 3)")
expect_equal(max(t for t, *_ in _o) + 1, 8, "the number of time steps of one_f_one_b_schedule(2, 3)")
expect_close(bubble_fraction(_g, 2), 1 / 3, "bubble_fraction(gpipe_schedule(2, 2), 2)")
### BEGIN HIDDEN TESTS
run_hidden("16-04", "schedule", globals())
### END HIDDEN TESTS

# %% [markdown]
# The picture: each row is a stage, each column a time step; forwards are blue, backwards orange, and the
# number is the micro-batch. Count the micro-batches in flight on stage 0 under each schedule.

# %%
def _draw(ax, schedule, S, title, bubble):
    for t, s, kind, m in schedule:
        ax.add_patch(__import__("matplotlib").patches.Rectangle((t, S - 1 - s), 1, 1,
                                                              color="tab:blue" if kind == "F" else "tab:orange"))
        ax.text(t + 0.5, S - 0.5 - s, str(m), ha="center", va="center", fontsize=7, color="white")
    T = 1 + max(t for t, *_ in schedule)
    ax.set(xlim=(0, T), ylim=(0, S), yticks=[S - 0.5 - s for s in range(S)], yticklabels=range(S),
           xlabel="time step", ylabel="stage", title=f"{title}: bubble {bubble:.2f}")


def _in_flight(schedule, s):
    now, peak = 0, 0
    for _, st, kind, _ in sorted(schedule):
        if st == s:
            now += 1 if kind == "F" else -1
            peak = max(peak, now)
    return peak


if run_demos():
    import matplotlib.pyplot as plt

    plans = {"GPipe": gpipe_schedule(4, 8), "1F1B": one_f_one_b_schedule(4, 8)}  # before any figure exists
    bubbles = {name: bubble_fraction(plan, 4) for name, plan in plans.items()}
    fig, axes = plt.subplots(2, 1, figsize=(12, 4.5))
    for ax, (name, plan) in zip(axes, plans.items()):
        _draw(ax, plan, 4, name, bubbles[name])
        print(f"{name}: at most {_in_flight(plan, 0)} micro-batches in flight on stage 0")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## 7. A two-stage pipeline over gloo
#
# The schedule is only bookkeeping until activations move. Split a model into two stages on two ranks and
# run the GPipe schedule for real: rank 0 sends each micro-batch's activations to rank 1 (`dist.send`),
# rank 1 finishes the forward and the loss and sends the gradient with respect to those activations back
# (`dist.send` again), and rank 0 continues its backward with it. The parameters' gradients accumulate over
# the micro-batches, and if each micro-batch's loss is weighted by its share of the rows, the result is the
# unsplit model's gradient on the whole batch.

# %% [markdown]
# ### Exercise 6 · `pipeline_grads` (3 points)
#
# `pipeline_grads(stage, data, loss_fn, M, width)` runs on the two ranks of the default group: on rank 0
# `stage` is the first part of a model and `data` the whole batch of inputs x; on rank 1 `stage` is the
# second part and `data` the whole batch of targets y.
#
# * Both stages are `nn.Module`s of one floating dtype whose parameters have `.grad` None at the call; stage 0
#   maps a micro-batch of r rows to contiguous activations of shape (r, `width`), in the parameters' dtype
#   (`dist.send` takes contiguous tensors only; the gradient of a buffer `dist.recv` filled is contiguous too),
#   and `loss_fn(out, y_m)` is the mean loss over a micro-batch's rows; x and y may have other dtypes than the
#   stages (token ids, class labels, float32 targets for a float64 model).
# * Cut `data` into M micro-batches with `torch.tensor_split(data, M)` (1 ≤ M ≤ the number of rows; their
#   sizes may differ by one).
# * Follow `gpipe_schedule(2, M)`: rank 0 runs the M forwards of its stage, sending each micro-batch's
#   activations to rank 1 with `dist.send`, then receives the M activation gradients in the order 0, 1,
#   ..., M-1 (`dist.recv`) and back-propagates each through its stage.
# * Rank 1 receives each micro-batch's activations (`dist.recv` into a buffer it makes), runs its stage and
#   the loss, and in the backward sends the gradient of that micro-batch's loss with respect to the
#   received activations to rank 0, in the order 0, 1, ..., M-1.
# * Weight micro-batch m's loss by its number of rows over the batch's, so that after the call the `.grad`
#   of every parameter of `stage` on each rank equals the gradient of `loss_fn(stage1(stage0(x)), y)` for
#   the unsplit model on the whole batch, which the grader computes.
# * Each rank sends exactly M messages (an activation or a gradient of one micro-batch, of shape (rows,
#   `width`)) and calls no collective; return None, leaving the grad mode and the process's other global settings
#   as you found them.
# * Make every tensor you create on the stage's device (`x.new_empty(...)`, `device=...`); a buffer that
#   receives activations or their gradients is in the parameters' dtype, whatever the dtypes of x and y.

# %% [solution] id=pipeline_impl
def pipeline_grads(stage, data, loss_fn, M, width):
    ### BEGIN SOLUTION
    rank = dist.get_rank()
    chunks, total = torch.tensor_split(data, M), len(data)
    dtype = next(stage.parameters()).dtype
    kept = {}
    for _, s, kind, m in gpipe_schedule(2, M):
        if s != rank:
            continue
        if rank == 0 and kind == "F":
            kept[m] = stage(chunks[m])
            dist.send(kept[m].detach(), 1)
        elif rank == 0:
            g = kept[m].new_empty(kept[m].shape)
            dist.recv(g, 1)
            kept.pop(m).backward(g)
        elif kind == "F":
            h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)
            dist.recv(h, 0)
            h.requires_grad_()
            kept[m] = (h, loss_fn(stage(h), chunks[m]) * (len(chunks[m]) / total))
        else:
            h, loss = kept.pop(m)
            loss.backward()
            dist.send(h.grad, 0)
    ### END SOLUTION

# %% [tests] id=pipeline_tests points=3
def _pipe_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(5, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3))


def _pipe_rank(rank, x, y, M):
    model = _pipe_model()
    stage = model[:2] if rank == 0 else model[2:]
    pipeline_grads(stage, x if rank == 0 else y, _mse, M, 6)
    return [p.grad for p in stage.parameters()]


_x6, _y6 = torch.randn(7, 5, generator=_gen3), torch.randn(7, 3, generator=_gen3)
_ref6 = _pipe_model()
_mse(_ref6(_x6), _y6).backward()
_g6 = launch(_pipe_rank, 2, [(r, _x6, _y6, 3) for r in range(2)])
for _r, _part in enumerate((_ref6[:2], _ref6[2:])):
    for _g, _p in zip(_g6[_r], _part.parameters()):
        expect_close(_g, _p.grad, f"pipeline_grads: the gradient of a parameter of shape {tuple(_p.shape)} on rank "
                                  f"{_r}, 7 rows in 3 micro-batches")
### BEGIN HIDDEN TESTS
run_hidden("16-04", "pipeline", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# * FSDP flattens a unit's parameters into one buffer padded to a multiple of W, so that every collective
#   moves W equal pieces.
# * ZeRO-1 keeps 1/W of the optimizer state per rank and all-gathers the updated shards; ZeRO-2 replaces
#   the gradient all-reduce with a reduce-scatter and sends no more than DDP; ZeRO-3 also gathers each
#   unit's parameters just before use and frees them right after.
# * Pipelines trade a bubble of (S - 1) / (M + S - 1) for splitting the model; 1F1B keeps the same bubble
#   as GPipe but caps the micro-batches in flight on stage s at S - s.
