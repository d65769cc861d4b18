"""Hidden checks of zero1_step and zero2_step (exercises 2 and 3), on 2 and 3 gloo ranks.

Per task, seed and world size one probe call (``run_zero``) forks the ranks once and runs the judge's
training runs there; every check reads those records. The expected parameters come from the judge's own
single-process ``torch.optim.AdamW`` on the mean of the ranks' gradients; the bytes each rank sends are
counted from the collectives and messages the probe logged, as the ring algorithms send them.
"""
import math
import zlib

import pytest
import torch

from course.judge.adapter import GraderOverloaded, StudentFailure
from course.judge.expect import expect, fail
from course.judge.probelib import join_group, judge_ranks, send_frame

WORLDS = (2, 3)
OP_TIMEOUT, DEADLINE = 5.0, 20.0
# name: (dtype, shapes, steps, hyper-parameters). n = 25 (k = 13 on 2 ranks, 9 on 3), n = 15, n = 1. The first
# parameter of each run is non-contiguous (LAYOUT0), its gradient laid out the same way.
RUNS = {
    "f64": (torch.float64, [(3, 4), (5,), (), (0, 3), (7,)], 3,
            {"lr": 0.05, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0.1}),
    # eps as large as the gradients: a sum instead of a mean changes the step. lr and betas change between the
    # calls, as a scheduler (OneCycleLR cycles beta1) changes them: AdamW corrects with each call's betas ** t
    # (held-out round 12: running products of the betas kept in state)
    "f32_eps": (torch.float32, [(4, 3), (3,)], 2, [{"lr": 0.1, "betas": (0.8, 0.9), "eps": 0.5, "weight_decay": 0.0},
                                                   {"lr": 0.05, "betas": (0.6, 0.97), "eps": 0.5,
                                                    "weight_decay": 0.0}]),
    # one element: every rank but rank 0 holds padding only; a fresh state (a step count kept elsewhere shows). The
    # probe interleaves the runs' steps (f64 1, f32_eps 1, tiny 1, f64 2, ...), each run with its own state dict, and
    # calls every second step under torch.no_grad(); at step 2 it passes back a deep copy of the run's state, as a
    # caller resumed from a checkpoint does (held-out round 21)
    "tiny": (torch.float64, [(1,)], 2, {"lr": 0.01, "betas": (0.5, 0.6), "eps": 1e-8, "weight_decay": 0.5}),
}
# the run whose calls pass lr, betas, eps and weight_decay by position, in the order the text gives (held-out round 27:
# a signature zero1_step(params, state, lr, betas, weight_decay, eps) ran with eps 0.5 and weight decay 1e-8 here)
POSITIONAL = "tiny"


LAYOUT0 = {"f64": "transposed", "f32_eps": "strided", "tiny": "offset"}
# (step, parameter, flat index, value): one gradient element near float32's overflow, the same on every rank. AdamW
# scales before it squares (addcmul_(g, g, value=1 - beta2): ((1 - beta2)·g)·g = 1.5e37), where g·g = 4.8e38 is inf
# in float32 and freezes that element for good; at step 2 (betas (0.6, 0.97)) v / (1 - beta2 ** 2) = 2.5e38 still
# fits, so the m_hat / v_hat form of the text's formula stays finite (held-out round 29: v.add_(g * g, alpha=1 - b2))
HUGE = {"f32_eps": (1, 1, 0, 2.2e19)}


def _gen(seed, task):
    return torch.Generator().manual_seed((int(seed) + zlib.crc32(task.encode())) % (2**31))


def build_runs(gen, world, task=""):
    runs = []
    for name, (dtype, shapes, steps, hp) in RUNS.items():
        init = [torch.randn(s, generator=gen, dtype=torch.float64).to(dtype) for s in shapes]
        grads = [[[torch.randn(s, generator=gen, dtype=torch.float64).mul(0.5 + r).to(dtype) for s in shapes]
                  for r in range(world)] for _ in range(steps)]
        # the first parameter of every run is laid out otherwise (held-out round 14: p.reshape(-1).copy_(new) writes
        # into a temporary copy of a non-contiguous parameter): transposed, every other element, a storage offset
        layouts = [LAYOUT0[name] if i == 0 else "contiguous" for i in range(len(shapes))]
        if name in HUGE:
            step, i, j, value = HUGE[name]
            for r in range(world):
                grads[step][r][i].view(-1)[j] = value
        hps = [dict(h) for h in hp] if isinstance(hp, list) else [dict(hp)] * steps
        # the float32 run's first call is made with float64 as the process's default dtype: the settings go back to
        # what the caller had, not to PyTorch's defaults (held-out round 24, second pass)
        runs.append({"name": name, "init": init, "grads": grads, "hp": dict(hps[0]), "hp_steps": hps,
                     "layouts": layouts, "default_dtype": "float64" if name == "f32_eps" else None,
                     "positional": name == POSITIONAL})
    return runs


def adamw_run(run):
    """The judge's single-process AdamW on the mean gradient: per step, the parameters and the two moments
    (exp_avg, exp_avg_sq), each flattened over the parameters in list order, in float64."""
    params = [t.clone() for t in run["init"]]
    opt = torch.optim.AdamW(params, **run["hp"])
    out, moments = [], []
    for j, grads in enumerate(run["grads"]):
        opt.param_groups[0].update(run["hp_steps"][j])  # this call's lr and betas, as a scheduler sets them
        for i, p in enumerate(params):
            p.grad = torch.stack([g[i] for g in grads]).to(torch.float64).mean(0).to(p.dtype)
        opt.step()
        out.append([p.detach().clone() for p in params])
        moments.append([torch.cat([opt.state[p][key].reshape(-1) for p in params]).to(torch.float64)
                        for key in ("exp_avg", "exp_avg_sq")])
    return out, moments


def expected(run):
    """The judge's single-process AdamW on the mean gradient: the parameters after each step."""
    return adamw_run(run)[0]


class Zero:
    """One task's records: per world size, per run, per step, per rank."""

    def __init__(self, student, fn, seed):
        self.fn, self.records, self.failure, self.runs, self.seed = fn, {}, None, {}, int(seed)
        gen = _gen(seed, fn)
        for world in WORLDS:
            self.runs[world] = build_runs(gen, world, fn)
        self.student, self.stuck = student, None

    def record(self, world):
        """The probe's record of ``world`` ranks; they run when a check first reads them (a known-wrong answer
        caught on one world does not pay for the other), and not after another world deadlocked (it would wait
        as long)."""
        if world not in self.records and self.failure is None and self.stuck is None:
            try:
                self.records[world] = self.student.call("run_zero", fn_name=self.fn, world=world,
                                                        runs=self.runs[world], op_timeout=OP_TIMEOUT,
                                                        deadline_s=DEADLINE)
            except StudentFailure as exc:
                self.failure = exc
            else:
                if self.records[world]["timed_out"]:
                    self.stuck = world
        if self.failure is not None:
            raise self.failure
        return self.records.get(world)

    def steps(self, world, run_name):
        """[(step, run, frames per rank)] for one run, failing with the reason when a rank has no record."""
        rec = self.record(world)
        idx = next(i for i, r in enumerate(self.runs[world]) if r["name"] == run_name)
        run = self.runs[world][idx]
        label = (f"{self.fn} on {world} ranks, run '{run_name}' ({RUNS[run_name][0]}, {len(run['grads'])} steps, "
                 f"interleaved with the other runs' steps, each run with its own state dict, passed back as a deep "
                 f"copy at step 2, as after a checkpoint)")
        if run.get("positional"):
            hp = run["hp"]
            label += (f", called by position: {self.fn}(params, state, {hp['lr']}, {hp['betas']}, {hp['eps']}, "
                      f"{hp['weight_decay']}) for (params, state, lr, betas, eps, weight_decay)")
        if isinstance(RUNS[run_name][3], list):
            label += f", lr and betas per call {[(h['lr'], h['betas']) for h in run['hp_steps']]}"
        if run_name in HUGE:
            step, i, j, value = HUGE[run_name]
            label += (f", the gradient of parameter {i}'s element {j} at step {step + 1} {value:g} on every rank "
                      f"(AdamW computes ((1 - beta2)·g)·g, finite; g·g overflows {RUNS[run_name][0]})")
        if rec is None:
            fail(f"{label}: not run, because the ranks on {self.stuck} ranks deadlocked")
        expect(rec["left_behind"] == 0, f"{label}: {rec['left_behind']} process(es) of the ranks were still "
                                        f"running after the grader killed them")
        ranks = rec["ranks"]
        expect(isinstance(ranks, list) and len(ranks) == world,
               f"{label}: the grader's probe reported "
               f"{len(ranks) if isinstance(ranks, list) else type(ranks).__name__} ranks' records, expected {world}")
        out = []
        for step in range(len(run["grads"])):
            frames = []
            for rank, fr in enumerate(rec["ranks"]):
                mine = [f for f in fr if f["run"] == idx and f["step"] == step]
                if not mine:
                    fail(self._missing(label, step, rank, rec))
                f = mine[0]
                if f["error"]:
                    fail(f"{label}, step {step + 1}: rank {rank} raised {f['error']['type']}: "
                         f"{f['error']['message'][:240]}{_hint(f['error'])}")
                frames.append(f)
            out.append((step, run, frames))
        return label, out

    def _missing(self, label, step, rank, rec):
        errs = [f for fr in rec["ranks"] for f in fr if f["error"]]
        errs.sort(key=lambda f: not _hint(f["error"]).startswith(" (a gloo"))
        if errs:
            e = errs[0]
            return (f"{label}, step {step + 1}: not reached, because a rank raised in run "
                    f"'{self.runs[rec['world']][e['run']]['name']}', step {e['step'] + 1}: {e['error']['type']}: "
                    f"{e['error']['message'][:200]}{_hint(e['error'])}")
        if rank in rec["timed_out"]:
            return (f"{label}, step {step + 1}: rank {rank} did not finish within {DEADLINE:.0f} s and was killed "
                    f"(a deadlock: ranks waiting for each other, e.g. a collective that not every rank calls)")
        return f"{label}, step {step + 1}: rank {rank} ended without a result (it crashed or exited)"


def _hint(err):
    msg = (err.get("message") or "").lower()
    if "timed out" in msg or "timeout" in msg:
        return (f" (a gloo operation waited {OP_TIMEOUT:.0f} s for its partners: a deadlock, e.g. a collective that "
                f"not every rank calls, or calls in a different order)")
    if "connection closed" in msg or "connection reset" in msg:
        return " (another rank stopped while this one was waiting for it)"
    return ""


_CACHE: dict = {}


def zero_records(student, seed, fn):
    key = (id(student), int(seed), fn)
    if key not in _CACHE:
        while len(_CACHE) >= 8:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = Zero(student, fn, seed)
    return _CACHE[key]


def sent_bytes(frame, world):
    """What one rank sent in one call, counted as the ring algorithms send it."""
    total = sum(s["bytes"] for s in frame["sends"])
    for c in frame["collectives"]:
        b, name = c["arg_bytes"], c["name"]
        w = c["group_size"]
        if name.startswith("allreduce"):
            total += 2 * (w - 1) * (b[0] if b else 0) / w
        elif name in ("allgather", "_allgather_base", "all_gather_single", "allgather_coalesced",
                      "allgather_into_tensor_coalesced", "all_gather_single_coalesced"):
            total += (w - 1) * (b[1] if len(b) > 1 else 0)
        elif name in ("reduce_scatter", "_reduce_scatter_base", "reduce_scatter_single",
                      "reduce_scatter_single_coalesced", "reduce_scatter_tensor_coalesced"):
            total += (w - 1) * (b[0] if b else 0)
        elif name not in ("barrier", "monitored_barrier"):
            total += (w - 1) * sum(b)
    return total


def _close(got, want, what, dtype):
    tol = dict(rtol=1e-9, atol=1e-11) if dtype == torch.float64 else dict(rtol=2e-5, atol=2e-6)
    expect(tuple(got.shape) == tuple(want.shape), f"{what}: shape {tuple(got.shape)}, expected {tuple(want.shape)}")
    expect(got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}")
    bad = ~torch.isclose(got.double(), want.double(), **tol)
    if bad.any():
        i = int(bad.reshape(-1).nonzero()[0])
        fail(f"{what}: {int(bad.sum())} of {want.numel()} values differ from single-process torch.optim.AdamW on the "
             f"mean gradient; at flat index {i} expected {want.reshape(-1)[i].item():.10g}, got "
             f"{got.reshape(-1)[i].item():.10g}")


def check_values(z, world, run_name):
    label, steps = z.steps(world, run_name)
    want = expected(steps[0][1])
    for step, run, frames in steps:
        for rank, f in enumerate(frames):
            for i, (got, w) in enumerate(zip(f["params"], want[step])):
                _close(got, w, f"{label}: parameter {i} (shape {tuple(w.shape)}) on rank {rank} after step "
                               f"{step + 1}", w.dtype)


def check_state(z, world, run_name):
    check_values(z, world, run_name)  # the values too: the records of another student's run do not pass
    label, steps = z.steps(world, run_name)
    n = sum(t.numel() for t in steps[0][1]["init"])
    k = math.ceil(n / world)
    for step, run, frames in steps:
        for rank, f in enumerate(frames):
            expect(f["state_numel"] <= 2 * k + 1,
                   f"{label}, after step {step + 1}: the tensors in state on rank {rank} hold {f['state_numel']} "
                   f"elements; a shard's two moments for {n} parameters on {world} ranks need at most "
                   f"2·{k} (+1 for a step count): keep moments for this rank's shard only")
            # held-out round 27: the whole flat parameter's moments kept as an attribute of params[0], state holding
            # a step count only
            outside = f.get("kept_outside") or []
            kept = f["state_numel"] + sum(e for _, e in outside)
            expect(not outside or kept <= 2 * k + 1,
                   f"{label}, after step {step + 1}: rank {rank} keeps {sum(e for _, e in outside)} tensor elements "
                   f"outside state ({'; '.join(f'{e} in {w}' for w, e in outside[:3])}) besides the {f['state_numel']} "
                   f"in state, {kept} in all; expected the step count and this rank's shard's moments in state, at "
                   f"most 2·{k} + 1 elements for {n} parameters on {world} ranks: \"state is a dict ... keep the step "
                   f"count and the moments there\"")


def _missing(got, want, rtol, atol):
    """The values of want (sorted) that no distinct value of got matches within rtol and atol."""
    g, missing, i = sorted(got.tolist()), [], 0
    for x in sorted(want.tolist()):
        while i < len(g) and g[i] < x and abs(g[i] - x) > atol + rtol * abs(x):
            i += 1
        if i < len(g) and abs(g[i] - x) <= atol + rtol * abs(x):
            i += 1
        else:
            missing.append(x)
    return missing


def check_moments(z, world, run_name):
    """Rank r's state holds the moments of the elements of flatten_shard(params, W, r) (the padding's zeros may be
    left out), as the judge's single-process AdamW computes them: held-out round 27, moments kept for a strided,
    round-robin shard (elements r, r + W, ...) came out with the right parameters and a state of the right size."""
    check_values(z, world, run_name)
    label, steps = z.steps(world, run_name)
    _, moments = adamw_run(steps[0][1])
    n = sum(t.numel() for t in steps[0][1]["init"])
    k = math.ceil(n / world)
    tol = dict(rtol=1e-9, atol=1e-12) if steps[0][1]["init"][0].dtype == torch.float64 else dict(rtol=2e-5, atol=1e-7)
    for step, run, frames in steps:
        for rank, f in enumerate(frames):
            got = f.get("state_values")
            if got is None:
                continue  # more than a few thousand elements: check_state fails it
            lo, hi = rank * k, min((rank + 1) * k, n)
            for name, m in zip(("exp_avg", "exp_avg_sq"), moments[step]):
                want = m[lo:hi]
                miss = _missing(got, want, **tol)
                if miss:
                    fail(f"{label}, after step {step + 1}: rank {rank}'s state does not hold the {name} of its shard, "
                         f"flat elements {lo}..{hi - 1} (flatten_shard(params, {world}, {rank})): "
                         f"{len(miss)} of {hi - lo} values of torch.optim.AdamW's {name} for them are not in state, e.g. "
                         f"{miss[0]:.10g}; got state values {[round(v, 8) for v in got.tolist()[:6]]}...: \"Keep moments "
                         f"for this rank's shard only (the shard of the flat parameter that flatten_shard(params, W, "
                         f"rank) gives)\"")


def check_by_position(z, world):
    """The run called by position (zero1_step(params, state, lr, betas, eps, weight_decay)) matches AdamW with those
    values in those roles."""
    label, steps = z.steps(world, POSITIONAL)
    want = expected(steps[0][1])
    for step, run, frames in steps:
        for rank, f in enumerate(frames):
            for i, (got, w) in enumerate(zip(f["params"], want[step])):
                bad = ~torch.isclose(got.double(), w.double(), rtol=1e-9, atol=1e-11)
                if bad.any():
                    j = int(bad.reshape(-1).nonzero()[0])
                    fail(f"{label}: parameter {i} on rank {rank} after step {step + 1}: expected "
                         f"{w.reshape(-1)[j].item():.10g} (torch.optim.AdamW with eps {run['hp']['eps']} and "
                         f"weight_decay {run['hp']['weight_decay']}), got {got.reshape(-1)[j].item():.10g}: the "
                         f"arguments come in the text's order, {z.fn}(params, state, lr, betas, eps, weight_decay)")


def check_in_place(z, world, run_name):
    check_values(z, world, run_name)
    label, steps = z.steps(world, run_name)
    for step, run, frames in steps:
        for rank, f in enumerate(frames):
            expect(f["same_objects"], f"{label}, step {step + 1}, rank {rank}: the list params holds other tensor "
                                      f"objects after the call; write the new values into the same tensors")
            expect(not any(f["moved"]), f"{label}, step {step + 1}, rank {rank}: parameter "
                                        f"{f['moved'].index(True) if any(f['moved']) else 0} now points at other "
                                        f"memory (p.data = ... or p.set_(...)); write the values in place "
                                        f"(p.copy_(...))")
            expect(f["leaves"], f"{label}, step {step + 1}, rank {rank}: a parameter is no longer a leaf that requires "
                                f"grad (the update was recorded by autograd, or requires_grad was switched off); write "
                                f"the values under torch.no_grad()")
            expect(f["returned"] == "NoneType", f"{label}, step {step + 1}, rank {rank}: returned a "
                                                f"{f['returned']}, expected None")
            left = f["global_changes"]
            how = "called under torch.no_grad()" if f.get("caller_no_grad") else "called with grad mode on"
            if f.get("caller_default_dtype"):
                how += f" and torch.{f['caller_default_dtype']} as the process's default dtype"
            expect(not left, f"{label}, step {step + 1} ({how}), rank {rank}: the call left the process's global "
                             f"settings changed ({'; '.join(left[:2])}); write the update under "
                             f"`with torch.no_grad():`, which gives the caller back its grad mode, whichever it was "
                             f"(torch.set_grad_enabled(False) and then (True) does not)")


def check_device(z, world, run_name):
    check_values(z, world, run_name)
    label, steps = z.steps(world, run_name)
    for step, run, frames in steps:
        for rank, f in enumerate(frames):
            bad = f["unplaced"] or (["a tensor kept in state"] if f["state_unplaced"] else [])
            expect(not bad, f"{label}, step {step + 1}, rank {rank}: {bad[0] if bad else ''} was made by a factory "
                            f"(torch.zeros, torch.empty, ...) without device=, so it lands on the cpu whatever the "
                            f"parameters' device; with NCCL they live on cuda:{rank}. Use torch.zeros_like(...), "
                            f"p.new_zeros(...) or device=p.device")


def called(frame, prefixes):
    return [c["name"] for c in frame["collectives"] if c["name"].startswith(prefixes)]


# ---------------------------------------------------------------- zero1
@pytest.fixture
def z1(student, course_seed):
    return zero_records(student, course_seed, "zero1_step")


@pytest.mark.task("zero1")
@pytest.mark.parametrize("world", WORLDS)
def test_zero1_matches_adamw(z1, world):
    """after every step of 3, every rank's parameters equal single-process AdamW on the mean gradient (float64; two
    other runs' steps interleaved, each run with its own state dict)"""
    check_values(z1, world, "f64")


@pytest.mark.task("zero1")
@pytest.mark.parametrize("world", WORLDS)
def test_zero1_mean_not_sum_float32(z1, world):
    """float32 parameters, eps as large as the gradients: the step uses the mean gradient, with each call's lr and
    betas (they change between calls); one gradient element of 2.2e19, whose square overflows float32 while AdamW's
    ((1 - beta2)·g)·g does not"""
    check_values(z1, world, "f32_eps")


ZRO_DEADLINE = 60.0
_ZRO: dict = {}  # (seed, world) -> per rank, the parameters after each step; kept for the judge session


def _zro_rank(run, rank, world, store_path, wfd):
    """One rank of the judge's own ZeroRedundancyOptimizer(AdamW) run, given the mean gradient (it does not
    average): the parameters after each step."""
    import torch.distributed as dist
    from torch.distributed.optim import ZeroRedundancyOptimizer
    join_group(store_path, rank, world, ZRO_DEADLINE / 2, wfd)
    params = [t.clone().requires_grad_() for t in run["init"]]
    opt = ZeroRedundancyOptimizer(params, optimizer_class=torch.optim.AdamW, **run["hp"])
    for grads in run["grads"]:
        for j, p in enumerate(params):
            p.grad = torch.stack([g[j] for g in grads]).to(torch.float64).mean(0).to(p.dtype)
        opt.step()
        send_frame(wfd, [p.detach().clone() for p in params])
    dist.destroy_process_group()


def zro_reference(z, world, run):
    """PyTorch's ZeroRedundancyOptimizer on ``world`` gloo ranks the judge forks itself (never the
    submission's): per rank, per step, the parameters; once per seed and world in a judge session."""
    key = (z.seed, world)
    if key not in _ZRO:
        def once():
            frames = judge_ranks(world, lambda rank, w, store, wfd: _zro_rank(run, rank, w, store, wfd), ZRO_DEADLINE)
            ok = frames is not None and all(len(frames[r]) == len(run["grads"]) for r in range(world))
            return [frames[r] for r in range(world)] if ok else None
        _ZRO[key] = once() or once()  # once more if it did not finish
    if _ZRO[key] is None:
        raise GraderOverloaded(f"the grader's own ZeroRedundancyOptimizer run on {world} gloo ranks did not finish "
                          f"(seed {z.seed}); this is not the submission's fault")
    return _ZRO[key]


@pytest.mark.task("zero1")
def test_zero1_matches_zero_redundancy_optimizer(z1):
    """on 2 and 3 ranks, after every step, the parameters equal torch.distributed.optim.ZeroRedundancyOptimizer(AdamW)
    run by the grader on its own gloo ranks, each rank given the mean gradient"""
    for world in WORLDS:
        label, steps = z1.steps(world, "f64")
        ref = zro_reference(z1, world, steps[0][1])
        for rank in range(world):
            for step, run, frames in steps:
                for i, (got, want) in enumerate(zip(frames[rank]["params"], ref[rank][step])):
                    bad = ~torch.isclose(got.double(), want.double(), rtol=1e-9, atol=1e-11)
                    expect(not bad.any(),
                           f"{label}: parameter {i} (shape {tuple(want.shape)}) on rank {rank} after step {step + 1}: "
                           f"{int(bad.sum())} of {want.numel()} values differ from ZeroRedundancyOptimizer(AdamW) "
                           f"run by the grader on {world} gloo ranks, given the mean gradient")


@pytest.mark.task("zero1")
def test_zero1_tiny_and_fresh_state(z1):
    """one parameter element (ranks with padding only), a fresh state dict while other runs' steps interleave"""
    for world in WORLDS:
        check_values(z1, world, "tiny")


@pytest.mark.task("zero1")
def test_zero1_state_is_one_shard(z1):
    """the tensors in state hold at most 2·ceil(n/W) elements, plus one for a step count (none kept outside state)"""
    for world in WORLDS:
        for run in RUNS:
            check_state(z1, world, run)


@pytest.mark.task("zero1")
def test_zero1_moments_of_flatten_shards_piece(z1):
    """rank r's state holds AdamW's two moments of the elements of flatten_shard(params, W, r)"""
    for world in WORLDS:
        for run in ("f64", "f32_eps"):
            check_moments(z1, world, run)


@pytest.mark.task("zero1")
def test_zero1_arguments_by_position(z1):
    """called by position, zero1_step(params, state, lr, betas, eps, weight_decay) reads each in its place"""
    for world in WORLDS:
        check_by_position(z1, world)


@pytest.mark.task("zero1")
def test_zero1_writes_in_place(z1):
    """the new values are written into the same leaf tensors of params, in place under no_grad (the caller's grad mode,
    on or off, and other global settings left as they were), and the call returns None"""
    for world in WORLDS:
        for run in RUNS:
            check_in_place(z1, world, run)


@pytest.mark.task("zero1")
def test_zero1_all_reduce_then_all_gather(z1):
    """the gradients are averaged with dist.all_reduce and the shards shared with an all-gather"""
    for world in WORLDS:
        check_values(z1, world, "f64")
        label, steps = z1.steps(world, "f64")
        for step, run, frames in steps:
            for rank, f in enumerate(frames):
                expect(called(f, ("allreduce",)), f"{label}, step {step + 1}, rank {rank}: no dist.all_reduce was "
                                                  f"called (collectives: {[c['name'] for c in f['collectives']]})")
                expect(called(f, ("allgather", "_allgather", "all_gather")),
                       f"{label}, step {step + 1}, rank {rank}: no all-gather was called (collectives: "
                       f"{[c['name'] for c in f['collectives']]})")


@pytest.mark.task("zero1")
def test_zero1_on_parameters_device(z1):
    """no buffer of a collective, no tensor kept in state and no tensor used beside the parameters' is made without
    device="""
    for world in WORLDS:
        check_device(z1, world, "f64")


# ---------------------------------------------------------------- zero2
@pytest.fixture
def z2(student, course_seed):
    return zero_records(student, course_seed, "zero2_step")


@pytest.mark.task("zero2")
@pytest.mark.parametrize("world", WORLDS)
def test_zero2_matches_adamw(z2, world):
    """after every step of 3, every rank's parameters equal single-process AdamW on the mean gradient (float64; two
    other runs' steps interleaved, each run with its own state dict)"""
    check_values(z2, world, "f64")


@pytest.mark.task("zero2")
@pytest.mark.parametrize("world", WORLDS)
def test_zero2_mean_not_sum_float32(z2, world):
    """float32 parameters, eps as large as the gradients: the reduce-scattered sum is divided by W; each call's lr
    and betas (they change between calls); one gradient element of 2.2e19, whose square overflows float32 while
    AdamW's ((1 - beta2)·g)·g does not"""
    check_values(z2, world, "f32_eps")


@pytest.mark.task("zero2")
def test_zero2_tiny_and_fresh_state(z2):
    """one parameter element (ranks with padding only), a fresh state dict while other runs' steps interleave"""
    for world in WORLDS:
        check_values(z2, world, "tiny")


@pytest.mark.task("zero2")
def test_zero2_state_is_one_shard(z2):
    """the tensors in state hold at most 2·ceil(n/W) elements, plus one for a step count (none kept outside state)"""
    for world in WORLDS:
        for run in RUNS:
            check_state(z2, world, run)


@pytest.mark.task("zero2")
def test_zero2_moments_of_flatten_shards_piece(z2):
    """rank r's state holds AdamW's two moments of the elements of flatten_shard(params, W, r)"""
    for world in WORLDS:
        for run in ("f64", "f32_eps"):
            check_moments(z2, world, run)


@pytest.mark.task("zero2")
def test_zero2_arguments_by_position(z2):
    """called by position, zero2_step(params, state, lr, betas, eps, weight_decay) reads each in its place"""
    for world in WORLDS:
        check_by_position(z2, world)


@pytest.mark.task("zero2")
def test_zero2_writes_in_place(z2):
    """the new values are written into the same leaf tensors of params, in place under no_grad (the caller's grad mode,
    on or off, and other global settings left as they were), and the call returns None"""
    for world in WORLDS:
        for run in RUNS:
            check_in_place(z2, world, run)


@pytest.mark.task("zero2")
def test_zero2_reduce_scatter_no_all_reduce(z2):
    """the gradients are reduce-scattered, no rank calls all_reduce, and the shards are all-gathered"""
    for world in WORLDS:
        for run in RUNS:
            check_values(z2, world, run)
            label, steps = z2.steps(world, run)
            for step, _, frames in steps:
                for rank, f in enumerate(frames):
                    names = [c["name"] for c in f["collectives"]]
                    expect(not called(f, ("allreduce",)), f"{label}, step {step + 1}, rank {rank}: dist.all_reduce "
                                                          f"was called ({names}); ZeRO-2 reduce-scatters instead")
                    expect(called(f, ("reduce_scatter", "_reduce_scatter")),
                           f"{label}, step {step + 1}, rank {rank}: no reduce-scatter was called ({names})")
                    expect(called(f, ("allgather", "_allgather", "all_gather")),
                           f"{label}, step {step + 1}, rank {rank}: no all-gather was called ({names})")


@pytest.mark.task("zero2")
def test_zero2_bytes_per_rank(z2):
    """each rank sends at most 2(W-1)·ceil(n/W) elements' worth a call (one flat, padded reduce-scatter)"""
    for world in WORLDS:
        for run in RUNS:
            check_values(z2, world, run)
            label, steps = z2.steps(world, run)
            n = sum(t.numel() for t in steps[0][1]["init"])
            esize = steps[0][1]["init"][0].element_size()
            limit = 2 * (world - 1) * math.ceil(n / world) * esize
            for step, _, frames in steps:
                for rank, f in enumerate(frames):
                    sent = sent_bytes(f, world)
                    expect(sent <= limit + 1e-9,
                           f"{label}, step {step + 1}, rank {rank}: sent {sent:g} bytes (counted as the ring "
                           f"algorithms send them), more than 2(W-1)·ceil(n/W) = {limit} bytes for n = {n}; "
                           f"collectives {[(c['name'], c['arg_bytes']) for c in f['collectives']]}")


@pytest.mark.task("zero2")
def test_zero2_on_parameters_device(z2):
    """no buffer of a collective, no tensor kept in state and no tensor used beside the parameters' is made without
    device="""
    for world in WORLDS:
        check_device(z2, world, "f64")
