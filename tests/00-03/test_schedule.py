"""Hidden checks of warmup_cosine_lr (exercise 3) against SequentialLR(LinearLR, CosineAnnealingLR)."""
import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR

from course.judge.expect import expect, expect_close

pytestmark = pytest.mark.task("schedule")
f64 = torch.float64


def torch_lrs(base_lr, warmup, total, start_factor, eta_min):
    """The rate PyTorch's chained schedulers give after 0, 1, ..., total scheduler steps."""
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
    cosine = CosineAnnealingLR(opt, total - warmup, eta_min)
    sched = cosine if warmup == 0 else SequentialLR(opt, [LinearLR(opt, start_factor, 1.0, warmup), cosine],
                                                    milestones=[warmup])
    out = []
    for _ in range(total + 1):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return out


def check(student, steps, want, base_lr, warmup, total, start_factor, eta_min, note=""):
    got = student.call("schedule_values", steps=steps, base_lr=base_lr, warmup_steps=warmup, total_steps=total,
                       start_factor=start_factor, eta_min=eta_min)
    for s, g, w in zip(steps, got, want):
        what = (f"warmup_cosine_lr({s}, base_lr={base_lr:.4g}, warmup_steps={warmup}, total_steps={total}, "
                f"start_factor={start_factor:.4g}, eta_min={eta_min:.4g}){note}")
        expect(isinstance(g, float), f"{what} returned {g!r} ({type(g).__name__}), not a Python float")
        expect_close(torch.tensor(g, dtype=f64), torch.tensor(w, dtype=f64), what, atol=1e-15, rtol=1e-9)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(warmup=st.integers(1, 8), extra=st.integers(1, 20), start_factor=st.sampled_from([0.01, 0.1, 0.5, 1.0]),
       base_lr=st.floats(1e-3, 1.0), eta_frac=st.sampled_from([0.0, 0.01, 0.3]))
def test_matches_sequential_lr(student, warmup, extra, start_factor, base_lr, eta_frac):
    """every step from 0 to total_steps equals SequentialLR(LinearLR, CosineAnnealingLR)"""
    total, eta_min = warmup + extra, base_lr * eta_frac
    want = torch_lrs(base_lr, warmup, total, start_factor, eta_min)
    check(student, list(range(total + 1)), want, base_lr, warmup, total, start_factor, eta_min,
          " (PyTorch's SequentialLR gives the expected value)")


def draw_args(gen):
    """base_lr, start_factor and eta_min drawn from the check's seed."""
    base_lr = float(torch.empty((), dtype=f64).uniform_(0.01, 1.0, generator=gen))
    start_factor = float(torch.empty((), dtype=f64).uniform_(0.05, 0.9, generator=gen))
    eta_min = base_lr * float(torch.empty((), dtype=f64).uniform_(0.001, 0.2, generator=gen))
    return base_lr, start_factor, eta_min


@pytest.mark.parametrize("warmup,total", [(1, 2), (5, 6), (4, 40), (10, 11)])
def test_boundaries(student, gen, warmup, total):
    """the boundaries step = warmup_steps - 1, warmup_steps, warmup_steps + 1 and total_steps"""
    base_lr, start_factor, eta_min = draw_args(gen)
    want = torch_lrs(base_lr, warmup, total, start_factor, eta_min)
    steps = sorted({warmup - 1, warmup, min(warmup + 1, total), total})
    check(student, steps, [want[s] for s in steps], base_lr, warmup, total, start_factor, eta_min,
          " (a boundary step)")


@pytest.mark.parametrize("total", [1, 7])
def test_no_warmup(student, gen, total):
    """with warmup_steps = 0 the cosine starts at base_lr at step 0"""
    base_lr, start_factor, eta_min = draw_args(gen)
    want = torch_lrs(base_lr, 0, total, start_factor, eta_min)
    check(student, list(range(total + 1)), want, base_lr, 0, total, start_factor, eta_min,
          " (no warm-up: CosineAnnealingLR)")


def test_after_total_steps(student, gen):
    """past total_steps the rate stays at eta_min"""
    base_lr, start_factor, eta_min = draw_args(gen)
    total = int(torch.randint(5, 15, (), generator=gen))
    for eta in (0, 0.0, eta_min):  # an int 0 too: the rate returned is a Python float all the same
        steps = [total + 1, total + 2, total + 8, 2 * total, 1000]
        check(student, steps, [eta] * len(steps), base_lr, 3, total, start_factor, eta, " (past total_steps: eta_min)")


def test_zero_base_lr(student, gen):
    """base_lr = 0 with eta_min = 0 (the assumptions allow it) gives 0.0 at every step, as SequentialLR does"""
    warmup = int(torch.randint(1, 5, (), generator=gen))
    total = warmup + int(torch.randint(2, 8, (), generator=gen))
    start_factor = [0.05, 0.1, 0.5][int(torch.randint(0, 3, (), generator=gen))]
    steps = list(range(total + 3))
    want = torch_lrs(0.0, warmup, total, start_factor, 0.0) + [0.0, 0.0]
    check(student, steps, want, 0.0, warmup, total, start_factor, 0.0,
          note=" (base_lr = 0 is within the stated assumptions, 0 <= eta_min <= base_lr)")


def test_warmup_below_eta_min(student, gen):
    """the warm-up starts at start_factor * base_lr even when that is below eta_min (eta_min up to base_lr, as the assumptions allow), as SequentialLR does"""
    base_lr = float(torch.empty((), dtype=f64).uniform_(0.01, 1.0, generator=gen))
    start_factor = float(torch.empty((), dtype=f64).uniform_(0.05, 0.3, generator=gen))
    warmup = int(torch.randint(2, 7, (), generator=gen))
    total = warmup + int(torch.randint(2, 8, (), generator=gen))
    for eta_min in (base_lr * float(torch.empty((), dtype=f64).uniform_(0.5, 0.9, generator=gen)), base_lr):
        want = torch_lrs(base_lr, warmup, total, start_factor, eta_min)
        check(student, list(range(total + 1)), want, base_lr, warmup, total, start_factor, eta_min,
              " (eta_min above start_factor * base_lr: the warm-up rises from start_factor * base_lr, the formula's "
              "first case, which does not involve eta_min)")


@pytest.mark.parametrize("warmup", [0, 3])
def test_int_arguments_give_floats(student, gen, warmup):
    """int arguments (base_lr, start_factor 1, eta_min 0 written as ints) give a Python float at every step, the end of the warm-up and total_steps included"""
    base_lr = int(torch.randint(1, 4, (), generator=gen))
    total = warmup + int(torch.randint(2, 9, (), generator=gen))
    want = torch_lrs(base_lr, warmup, total, 1, 0) + [0.0, 0.0]
    check(student, list(range(total + 3)), want, base_lr, warmup, total, 1, 0,
          note=f" (int arguments: the text asks for a Python float, as {base_lr} * 1.0 would give)")


def test_interleaved_schedules(student, gen):
    """four schedules called in turn, step by step (two of them sharing base_lr, warmup_steps and total_steps with the first, or base_lr, start_factor and eta_min), and one called from its last step back to 0: every value is the formula's for its own arguments (a function of them alone, nothing kept from an earlier call)"""
    configs = []
    for warmup in (int(torch.randint(1, 4, (), generator=gen)), 0):
        base_lr, start_factor, eta_min = draw_args(gen)
        configs.append((base_lr, warmup, warmup + int(torch.randint(4, 9, (), generator=gen)), start_factor, eta_min))
    # two more that share some arguments with the first and differ in the others: a value kept from an earlier call
    # under a key of only some of the arguments belongs to another schedule
    a_lr, a_warmup, a_total, a_factor, a_eta = configs[0]
    _, other_factor, other_eta = draw_args(gen)
    configs.append((a_lr, a_warmup, a_total, other_factor, min(other_eta, a_lr)))
    configs.append((a_lr, a_warmup + 1, a_total + 2, a_factor, a_eta))
    wants = [torch_lrs(*c) for c in configs]
    last = min(c[2] for c in configs)
    calls, want = [], []
    for s in range(last + 1):  # A(s), B(s), A(s + 1), B(s + 1), ...
        for c, w in zip(configs, wants):
            calls.append([s, c[0], c[1], c[2], c[3], c[4]])
            want.append(w[s])
    a, w = configs[0], wants[0]
    for s in range(a[2], -1, -1):  # then A backwards: a resume picks up at any step
        calls.append([s, a[0], a[1], a[2], a[3], a[4]])
        want.append(w[s])
    got = student.call("schedule_calls", calls=calls)
    for n, ((s, b, wu, t, f, e), g, w) in enumerate(zip(calls, got, want), start=1):
        what = (f"warmup_cosine_lr({s}, base_lr={b:.4g}, warmup_steps={wu}, total_steps={t}, start_factor={f:.4g}, "
                f"eta_min={e:.4g}), call {n} of {len(calls)}, right after the call for "
                + (f"step {calls[n - 2][0]} with base_lr={calls[n - 2][1]:.4g}" if n > 1 else "nothing")
                + " (clause: returns the learning rate for step number step by the formula above; PyTorch's "
                "SequentialLR gives the expected value; a rate carried over from the previous call belongs to "
                "another schedule or step)")
        expect(isinstance(g, float), f"{what} returned {g!r} ({type(g).__name__}), not a Python float")
        expect_close(torch.tensor(g, dtype=f64), torch.tensor(w, dtype=f64), what, atol=1e-15, rtol=1e-9)


def test_arguments_by_position(student, gen):
    """start_factor and eta_min given by position, in the text's order (step, base_lr, warmup_steps, total_steps, start_factor, eta_min), give what they give by keyword"""
    base_lr, start_factor, eta_min = draw_args(gen)
    warmup = int(torch.randint(2, 5, (), generator=gen))
    total = warmup + int(torch.randint(3, 8, (), generator=gen))
    want = torch_lrs(base_lr, warmup, total, start_factor, eta_min)
    steps = [0, 1, warmup, warmup + 1, total, total + 3]
    calls = [[s, base_lr, warmup, total, start_factor, eta_min] for s in steps]
    got = student.call("schedule_by_position", calls=calls)
    for (s, b, w, t, f, e), g in zip(calls, got):
        what = (f"warmup_cosine_lr({s}, {b!r}, {w}, {t}, {f!r}, {e!r}), every argument by position (clause: "
                "warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0), so the "
                f"fifth is start_factor = {f:.4g} and the sixth eta_min = {e:.4g}; PyTorch's SequentialLR gives the "
                "expected value)")
        expect(isinstance(g, float), f"{what} returned {g!r} ({type(g).__name__}), not a Python float")
        expect_close(torch.tensor(g, dtype=f64), torch.tensor(want[s] if s <= total else e, dtype=f64),
                     what, atol=1e-15, rtol=1e-9)
