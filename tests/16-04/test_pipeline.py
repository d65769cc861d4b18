"""Hidden checks of pipeline_grads (exercise 6): one probe call (``run_pipeline``) forks two gloo ranks and
runs the judge's cases there (float64 stages but one float32 case, micro-batches of unequal sizes, M = 1 and
M = the rows); the probe logs every send and receive in order; one case has int64 targets, one int64 inputs (token
ids) and one float32 targets for the float64 stages, so that neither rank's receive buffer can take its dtype from
data. The expected gradients are the judge's own backward of the unsplit model on the whole batch."""
import zlib

import pytest
import torch

from course.judge.adapter import StudentFailure
from course.judge.expect import expect, fail

pytestmark = pytest.mark.task("pipeline")

OP_TIMEOUT, DEADLINE = 5.0, 20.0
WIDTH = 6
# (rows, M): micro-batches of 4, 3, 3 rows; 3, 3, 2, 2 (torch.chunk would give 3, 3, 3, 1); the whole batch;
# one row each; 7 rows in 3 (3, 2, 2) with int64 targets (class-label-like): the activations rank 1 receives are in the
# parameters' dtype, float64, not data's (blind round 3: a buffer made with data.new_empty on rank 1)
# 7 rows in 2 (4, 3) with int64 token ids as inputs (stage 0 one-hot encodes them): the gradient rank 0 receives is
# in the parameters' dtype, not x's (held-out round 10: a buffer made with x_m.new_empty)
# 6 rows in 2 (3, 3) with float32 targets for the float64 stages: floating-point targets need not have the parameters'
# dtype either (held-out round 17: rank 1's buffer took data's dtype whenever data was floating point)
# 5 rows in 2 (3, 2) with float32 stages, inputs and targets: the buffers follow the parameters' dtype, which is not
# always float64 (round 17's contract walk: the dtype clauses were read on float64 stages only)
# the first case runs with float64 as the process's default dtype: settings are left as the caller had them, not reset
# to PyTorch's defaults (held-out round 24: torch.set_default_dtype(dtype) for a buffer, then "back" to torch.float32)
# 6 rows in 3 (2, 2, 2) with a stage 1 that begins with a learned 0-d gain (h * g) before its Linear(6, 3): the
# receive buffer's width is the argument width, which no parameter's shape need show (held-out round 27: rank 1 took
# next(stage.parameters()).shape[-1], Linear(6, 3)'s in_features whenever stage 1 began with it)
CASES = [(10, 3), (10, 4), (5, 1), (4, 4), (7, 3), (7, 2), (6, 2), (5, 2), (6, 3)]
INT_TARGETS, INT_INPUTS, F32_TARGETS, F32_STAGES, DEFAULT_F64, GAIN1 = {4}, {5}, {6}, {7}, {0}, {8}


def build_runs(seed):
    gen = torch.Generator().manual_seed((int(seed) + zlib.crc32(b"pipeline")) % (2**31))
    runs = []
    for rows, M in CASES:
        init = [torch.randn(s, generator=gen, dtype=torch.float64) for s in [(6, 5), (6,), (3, 6), (3,)]]
        if len(runs) in GAIN1:  # stage 1's gain, 0-d, comes first among its parameters
            init.insert(2, torch.rand((), generator=gen, dtype=torch.float64) + 0.5)
        x = torch.randn(rows, 5, generator=gen, dtype=torch.float64)
        if len(runs) in INT_INPUTS:
            x = torch.randint(0, 5, (rows,), generator=gen, dtype=torch.int64)
        if len(runs) in INT_TARGETS:
            y = torch.randint(-2, 3, (rows, 3), generator=gen, dtype=torch.int64)
        elif len(runs) in F32_TARGETS:
            y = torch.randn(rows, 3, generator=gen, dtype=torch.float32)
        else:
            y = torch.randn(rows, 3, generator=gen, dtype=torch.float64)
        if len(runs) in F32_STAGES:
            init, x, y = [t.to(torch.float32) for t in init], x.to(torch.float32), y.to(torch.float32)
        runs.append({"M": M, "init": init, "x": x, "y": y, "ids": len(runs) in INT_INPUTS, "gain": len(runs) in GAIN1,
                     "default_dtype": "float64" if len(runs) in DEFAULT_F64 else None})
    return runs


def expected(run):
    """The unsplit model's gradients on the whole batch, per rank's stage."""
    ps = [t.clone().requires_grad_() for t in run["init"]]
    x = torch.nn.functional.one_hot(run["x"], 5).to(torch.float64) if run["ids"] else run["x"]
    h = torch.tanh(torch.nn.functional.linear(x, ps[0], ps[1]))
    if run.get("gain"):  # stage 1: h * g, then Linear(6, 3)
        out = torch.nn.functional.linear(h * ps[2], ps[3], ps[4])
        torch.nn.functional.softplus(out - run["y"]).mean().backward()
        return [[ps[0].grad, ps[1].grad], [ps[2].grad, ps[3].grad, ps[4].grad]]
    out = torch.nn.functional.linear(h, ps[2], ps[3])
    torch.nn.functional.softplus(out - run["y"]).mean().backward()  # the probe's judge_loss
    return [[ps[0].grad, ps[1].grad], [ps[2].grad, ps[3].grad]]


class Pipe:
    def __init__(self, student, seed):
        self.runs, self.failure, self.rec = build_runs(seed), None, None
        try:
            self.rec = student.call("run_pipeline", runs=self.runs, op_timeout=OP_TIMEOUT, deadline_s=DEADLINE)
        except StudentFailure as exc:
            self.failure = exc

    def frames(self, i):
        if self.failure is not None:
            raise self.failure
        rows, M = CASES[i]
        label = f"pipeline_grads on 2 ranks, {rows} rows in M = {M} micro-batches"
        if i in INT_TARGETS:
            label += " (float64 stages, int64 targets: rank 1's activations are float64 whatever data's dtype)"
        if i in F32_TARGETS:
            label += (" (float64 stages, float32 targets: rank 1's activations are float64, the parameters' dtype, "
                      "whatever data's dtype, floating point or not)")
        if i in F32_STAGES:
            label += " (float32 stages, inputs and targets: the buffers are float32, the parameters' dtype)"
        if i in DEFAULT_F64:
            label += " (called with torch.float64 as the process's default dtype)"
        if i in INT_INPUTS:
            label += (" (float64 stages, int64 token ids as inputs, one-hot encoded by stage 0: the activations and "
                      "the gradients rank 0 receives are float64 whatever data's dtype)")
        if i in GAIN1:
            label += (f" (stage 1 = Sequential(Gain, Linear(6, 3)), its first parameter a 0-d gain g, h * g: the "
                      f"activations rank 1 receives have shape (rows, width) with width = {WIDTH}, the argument, "
                      f"whatever the stage's parameters' shapes)")
        expect(self.rec["left_behind"] == 0, f"{label}: {self.rec['left_behind']} process(es) of the ranks were "
                                             f"still running after the grader killed them")
        # the probe forks two ranks and reports one record list each: fewer would leave the checks nothing to read
        expect(isinstance(self.rec["ranks"], list) and len(self.rec["ranks"]) == 2,
               f"{label}: the grader's probe reported {len(self.rec['ranks'])} ranks' records, expected 2")
        raised = [(rank, f["error"]) for rank, fr in enumerate(self.rec["ranks"]) for f in fr
                  if f["run"] == i and f["error"]]
        # the cause first: a rank that raised because its peer died ("closed by peer") only echoes the other's error
        raised.sort(key=lambda re: "peer" in re[1]["message"])
        if raised:
            rank, e = raised[0]
            gone = [r for r, fr in enumerate(self.rec["ranks"]) if not any(f["run"] == i for f in fr)]
            if "peer" in e["message"] and gone:  # the peer crashed (gloo aborts on a size mismatch): name it first
                fail(f"{label}: rank {gone[0]} ended without a result (it crashed: gloo ends a process whose receive "
                     f"buffer's byte size differs from the message's, e.g. a buffer in another dtype than the "
                     f"activations or gradients that were sent); rank {rank} then raised {e['type']}: "
                     f"{e['message'][:160]}")
            fail(f"{label}: rank {rank} raised {e['type']}: {e['message'][:240]}")
        out = []
        for rank, fr in enumerate(self.rec["ranks"]):
            mine = [f for f in fr if f["run"] == i]
            if not mine:
                errs = [f for r in self.rec["ranks"] for f in r if f["error"]]
                if errs:
                    e = errs[0]
                    fail(f"{label}: not reached, because a rank raised in the case of M = {CASES[e['run']][1]}: "
                         f"{e['error']['type']}: {e['error']['message'][:240]}")
                if rank in self.rec["timed_out"]:
                    fail(f"{label}: rank {rank} did not finish within {DEADLINE:.0f} s and was killed (a deadlock: a "
                         f"recv with no matching send, or the two ranks waiting for each other in a different order)")
                fail(f"{label}: rank {rank} ended without a result (it crashed or exited)")
            if mine[0]["error"]:
                e = mine[0]["error"]
                fail(f"{label}: rank {rank} raised {e['type']}: {e['message'][:240]}")
            out.append(mine[0])
        return label, out


_CACHE: dict = {}


@pytest.fixture
def pipe(student, course_seed):
    key = (id(student), int(course_seed))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = Pipe(student, course_seed)
    return _CACHE[key]


def check_grads(p, i):
    label, frames = p.frames(i)
    want = expected(p.runs[i])
    # float32: the micro-batches' sum of weighted gradients rounds otherwise than the whole batch's backward
    rtol, atol = (1e-5, 1e-6) if p.runs[i]["init"][0].dtype == torch.float32 else (1e-9, 1e-12)
    for rank, f in enumerate(frames):
        for j, (got, w) in enumerate(zip(f["grads"], want[rank])):
            what = f"{label}: the .grad of stage {rank}'s parameter {j} (shape {tuple(w.shape)})"
            expect(got is not None, f"{what} is None after the call")
            expect(tuple(got.shape) == tuple(w.shape), f"{what} has shape {tuple(got.shape)}")
            bad = ~torch.isclose(got, w, rtol=rtol, atol=atol)
            if bad.any():
                k = int(bad.reshape(-1).nonzero()[0])
                fail(f"{what}: {int(bad.sum())} of {w.numel()} values differ from the unsplit model's gradient on the "
                     f"whole batch; at flat index {k} expected {w.reshape(-1)[k].item():.10g}, got "
                     f"{got.reshape(-1)[k].item():.10g}")
    return label, frames


@pytest.mark.parametrize("case", range(len(CASES)))
def test_pipeline_grads_match_unsplit(pipe, case):
    """each stage's parameter gradients equal the unsplit model's on the whole batch (float64; one case float32)"""
    check_grads(pipe, case)


def test_pipeline_messages(pipe):
    """each rank sends M messages of one micro-batch (torch.tensor_split) each, in GPipe's order, and no collective"""
    for i, (rows, M) in enumerate(CASES):
        label, frames = check_grads(pipe, i)
        esize = pipe.runs[i]["init"][0].element_size()  # the activations and their gradients: the stages' dtype
        sizes = [len(c) * WIDTH * esize for c in torch.tensor_split(torch.arange(rows), M)]
        for rank, f in enumerate(frames):
            expect(not f["collectives"], f"{label}: rank {rank} called collectives {f['collectives']}; only "
                                         f"dist.send and dist.recv move data here")
            first, then = ("send", "recv") if rank == 0 else ("recv", "send")
            want = [[first, b] for b in sizes] + [[then, b] for b in sizes]
            expect(f["order"] == want,
                   f"{label}: rank {rank}'s messages (kind, bytes) were {f['order']}, expected {want}: the M "
                   f"micro-batches of torch.tensor_split, all forwards first (GPipe), then the backwards in the order "
                   f"0..M-1")


def test_pipeline_stage_runs_each_micro_batch(pipe):
    """each rank's stage runs once per micro-batch, on the rows of torch.tensor_split, in the order 0..M-1"""
    for i, (rows, M) in enumerate(CASES):
        label, frames = check_grads(pipe, i)
        want = [len(c) for c in torch.tensor_split(torch.arange(rows), M)]
        for rank, f in enumerate(frames):
            expect(f["calls"] == want,
                   f"{label}: rank {rank}'s stage ran on inputs of {f['calls']} rows, expected one forward per "
                   f"micro-batch, {want} rows in turn: gpipe_schedule(2, M) runs the M forwards of each stage, so "
                   f"each micro-batch goes through the stage on its own, not the whole batch at once")


def test_pipeline_on_stage_device(pipe):
    """no buffer sent or received into and no tensor used beside the stage's is made without device="""
    for i in range(len(CASES)):
        label, frames = check_grads(pipe, i)
        for rank, f in enumerate(frames):
            expect(not f["unplaced"] and f["returned"] == "NoneType",
                   f"{label}, rank {rank}: " + (f"{f['unplaced'][0]} was made by a factory (torch.empty, torch.zeros, "
                                                f"...) without device=, so it lands on the cpu whatever the stage's "
                                                f"device; use x.new_empty(...) or device=..." if f["unplaced"] else
                                                f"returned a {f['returned']}, expected None"))


def test_pipeline_returns_none_settings_unchanged(pipe):
    """each rank's call returns None and leaves the grad mode and the process's other global settings as they were"""
    for i in range(len(CASES)):
        label, frames = check_grads(pipe, i)
        for rank, f in enumerate(frames):
            expect(f["returned"] == "NoneType", f"{label}, rank {rank}: returned a {f['returned']}, expected None")
            left = f["global_changes"]
            expect(not left, f"{label}, rank {rank}: the call left the process's global settings changed "
                             f"({'; '.join(left[:2])}); leave them as the caller had them (not as PyTorch's defaults "
                             f"are): use contexts (`with torch.no_grad():`) or arguments (dtype=..., device=...), "
                             f"which give the caller back what it had")
