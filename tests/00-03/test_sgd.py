"""Hidden checks of MomentumSGD (exercise 2) against torch.optim.SGD (foreach=False) on the judge."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal, expect_raises, fail

pytestmark = pytest.mark.task("sgd")
f64 = torch.float64

CONFIGS = {
    "momentum with dampening and weight decay": [
        {"idx": [0, 1], "hyper": {"lr": 0.1, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.05}},
        {"idx": [2], "hyper": {"lr": 0.03, "momentum": 0.5, "dampening": 0.0, "weight_decay": 0.0}}],
    "nesterov": [
        {"idx": [0, 2], "hyper": {"lr": 0.05, "momentum": 0.8, "weight_decay": 0.1, "nesterov": True}},
        {"idx": [1], "hyper": {"lr": 0.2, "momentum": 0.0, "weight_decay": 0.2}}],
    "no momentum, weight decay 1": [{"idx": [0, 1, 2], "hyper": {"lr": 0.07, "weight_decay": 1.0}}],
    "nesterov and momentum without weight decay": [
        {"idx": [0], "hyper": {"lr": 0.05, "momentum": 0.9, "nesterov": True}},
        {"idx": [1, 2], "hyper": {"lr": 0.1, "momentum": 0.7, "dampening": 0.2}}],
}


def torch_groups(params, groups):
    return [dict(g["hyper"], params=[params[i] for i in g["idx"]]) for g in groups]


def draw(gen, steps=4, none_at=(), zero_at=((1, 1),)):
    """Values and gradients; the gradients at (step, parameter) in zero_at are all zeros (a gradient, not None:
    the parameter is still stepped, its momentum buffer updated)."""
    shapes = [(3, 2), (4,), ()]
    values = [torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    grads = [[None if (step, i) in none_at else torch.randn(s, generator=gen, dtype=f64) * 3
              for i, s in enumerate(shapes)] for step in range(steps)]
    for step, i in zero_at:
        if step < steps and grads[step][i] is not None:
            grads[step][i] = torch.zeros_like(grads[step][i])
    return values, grads


def reference(values, groups, grads, set_hyper=()):
    params = [torch.nn.Parameter(v.clone()) for v in values]
    opt = torch.optim.SGD(torch_groups(params, groups), lr=groups[0]["hyper"]["lr"], foreach=False)
    out = []
    for step, gs in enumerate(grads):
        for p, g in zip(params, gs):
            p.grad = None if g is None else g.clone()
        for when, gi, hyper in set_hyper:  # as sgd_run does: written into param_groups just before that step
            if when == step:
                opt.param_groups[gi].update(hyper)
        opt.step()
        out.append([p.detach().clone() for p in params])
    return out


def compare(res, want, what):
    if len(res["params"]) != len(want):
        fail(f"{what}: {len(res['params'])} steps reported, expected {len(want)}")
    for step, (got, exp) in enumerate(zip(res["params"], want), start=1):
        for i, (g, e) in enumerate(zip(got, exp)):
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.SGD gives the expected "
                               f"value)", atol=1e-14, rtol=1e-12)


def describe(name, groups):
    return f"MomentumSGD with param groups {[g['hyper'] for g in groups]} ({name})"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_matches_torch_sgd(student, gen, name):
    """every parameter follows torch.optim.SGD step for step, over several param groups"""
    groups = CONFIGS[name]
    values, grads = draw(gen)
    res = student.call("sgd_run", values=values, groups=groups, grads=grads)
    compare(res, reference(values, groups, grads), describe(name, groups))


def test_hyperparameters_read_at_each_step(student, gen):
    """hyperparameters changed in param_groups between steps (as a scheduler sets lr) take effect from that step on, as in torch.optim.SGD"""
    groups = CONFIGS["momentum with dampening and weight decay"]
    values, grads = draw(gen, steps=6)
    # group 1 at lr 0 for its first two steps (a warm-up from 0): torch still creates and updates its momentum buffer;
    # group 0's momentum set to 0 for step 5 (torch steps with d itself and leaves the buffer as it was), then to 0.8
    # for step 6 (torch goes on from that buffer)
    # group 0's dampening changed from 0.3 to 0.6 before step 2: the buffer adds (1 - 0.6) * d from then on
    set_hyper = [[0, 1, {"lr": 0.0}], [1, 0, {"lr": 0.02, "dampening": 0.6}],
                 [2, 1, {"lr": 0.3, "weight_decay": 0.1}], [3, 0, {"lr": 0.15, "momentum": 0.6}],
                 [4, 0, {"momentum": 0.0}], [5, 0, {"momentum": 0.8}]]
    res = student.call("sgd_run", values=values, groups=groups, grads=grads, set_hyper=set_hyper)
    compare(res, reference(values, groups, grads, set_hyper),
            describe("momentum with dampening and weight decay", groups) + " with param_groups changed before "
            f"steps 1 to 6 ([step index, group, new values]: {set_hyper}; at lr 0 torch.optim.SGD still keeps and "
            "updates the momentum buffer; at momentum 0 it steps with d and leaves the buffer untouched, and goes on "
            "from it when momentum returns; a dampening changed between steps applies from that step on; clause: read "
            "them at every step())")


def check_no_state_entry(res, grads, what, torch_name):
    """A parameter whose .grad was None at every step so far has no entry at all in opt.state (torch never reads
    self.state[p] for it; an empty dict made by self.state[p] shows up in state_dict()['state'])."""
    for step in range(len(grads)):
        want = [i for i in range(len(grads[0])) if any(gs[i] is not None for gs in grads[:step + 1])]
        got = res.get("in_state", [None] * len(grads))[step]
        expect_equal(got, want, f"{what}: the parameters that are keys of opt.state after step {step + 1} (a "
                                f"parameter whose .grad was None at every step so far gets no state, not even an "
                                f"empty dict: {torch_name}'s opt.state has no key for it and its state_dict()['state'] "
                                "no entry; self.state[p] read before the None check makes one)")


def test_grad_none_skipped(student, gen):
    """a parameter whose .grad is None is not changed and gets no state"""
    groups = CONFIGS["momentum with dampening and weight decay"]
    none_at = {(0, 0), (1, 0), (0, 2), (2, 2)}
    values, grads = draw(gen, steps=4, none_at=none_at)
    res = student.call("sgd_run", values=values, groups=groups, grads=grads)
    what = describe("some gradients None", groups)
    expect_equal(res["stateless"][0], [0, 2], f"{what}: the parameters without any state after step 1 "
                                              "(parameters 0 and 2 had .grad None)")
    expect_equal(res["stateless"][1], [0], f"{what}: the parameters without any state after step 2")
    check_no_state_entry(res, grads, what, "torch.optim.SGD")
    expect_close(res["params"][1][0], values[0], f"{what}: parameter 0 after two steps with .grad None",
                 atol=0, rtol=0)
    compare(res, reference(values, groups, grads), what)


def test_grad_left_unchanged(student, gen):
    """step() never changes a .grad"""
    for name in ("momentum with dampening and weight decay", "nesterov", "nesterov and momentum without weight decay"):
        groups = CONFIGS[name]
        values, grads = draw(gen, steps=3)
        res = student.call("sgd_run", values=values, groups=groups, grads=grads)
        for step, (got, given) in enumerate(zip(res["grads_after"], grads), start=1):
            for i, (g, e) in enumerate(zip(got, given)):
                expect_close(g, e, f"{describe(name, groups)}: .grad of parameter {i} after step {step} "
                                   "(step() must leave it as it was)", atol=0, rtol=0)


def test_no_state_without_momentum(student, gen):
    """the momentum buffer is state[p]['momentum_buffer'], kept only when momentum is not 0"""
    # a second, empty parameter (shape (0,), a .grad of shape (0,)): it has a .grad, so it is stepped and gets a
    # momentum buffer like any other (torch.optim.SGD keeps an empty one); only None skips a parameter
    values = [torch.randn(3, generator=gen, dtype=f64), torch.zeros(0, dtype=f64)]
    mu = float(torch.empty(()).uniform_(0.3, 0.95, generator=gen))
    for hyper in ({"lr": 0.1, "momentum": mu, "dampening": 0.25}, {"lr": 0.1, "weight_decay": 0.1}):
        got = student.call("sgd_state_keys", values=values, hyper=hyper, steps=2)
        what = (f"state[p] after 2 steps of MomentumSGD([p, q], **{hyper}) with a gradient of ones (q is an empty "
                "parameter of shape (0,) with a .grad of shape (0,): torch.optim.SGD steps it and keeps its state too; "
                "clause: only None skips a parameter)")
        expect_equal(got["keys"], [["momentum_buffer"] if hyper.get("momentum") else []] * 2,
                     f"the keys of {what}, for [p, q]")
        if hyper.get("momentum"):
            p = torch.nn.Parameter(values[0].clone())
            ref = torch.optim.SGD([p], foreach=False, **hyper)
            for _ in range(2):
                p.grad = torch.ones_like(p)
                ref.step()
            expect_close(got["buffers"][0], ref.state[p]["momentum_buffer"], f"{what}: state[p]['momentum_buffer']",
                         atol=1e-14, rtol=1e-12)


def test_buffer_on_the_parameters_device(student):
    """step() works on parameters off the CPU as torch.optim.SGD's does: the momentum buffer lives on the parameter's device (parameters on the meta device, a stand-in for a GPU)"""
    for hyper in ({"lr": 0.1, "momentum": 0.9, "dampening": 0.2, "weight_decay": 0.1},
                  {"lr": 0.1, "momentum": 0.8, "nesterov": True}):
        res = student.call("sgd_on_meta", shapes=[[3, 2], [4]], hyper=hyper, steps=2)
        what = (f"MomentumSGD(params, **{hyper}) stepping two float64 parameters on the meta device (a stand-in for a "
                "GPU; torch.optim.SGD steps them) twice")
        expect(res["error"] is None, f"{what}: step() raised {res['error']}; expected it to step as torch.optim.SGD "
                                     "does (clause: every parameter equals what torch.optim.SGD gives; a buffer made "
                                     "with torch.zeros(shape) without device= is on the CPU)")
        expect_equal(res["buffers"], ["meta", "meta"], f"{what}: the devices of state[p]['momentum_buffer'] (the "
                                                       "parameter's device, as torch.optim.SGD keeps it)")


def test_buffer_follows_bfloat16_parameters(student, gen):
    """bfloat16 parameters: the momentum buffer is a bfloat16 tensor of p's shape, as torch.optim.SGD keeps it (not a float32 copy), and the steps match it to bfloat16 rounding"""
    groups = CONFIGS["momentum with dampening and weight decay"]
    values, grads = draw(gen, steps=4)
    values = [v.bfloat16() for v in values]
    grads = [[g.bfloat16() for g in gs] for gs in grads]
    res = student.call("sgd_run", values=values, groups=groups, grads=grads)
    what = describe("bfloat16 parameters", groups)
    for step, (got, exp) in enumerate(zip(res["params"], reference(values, groups, grads)), start=1):
        for i, (g, e) in enumerate(zip(got, exp)):  # 8 significant bits: an ulp or two per step between formulas
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.SGD gives the expected value)",
                         atol=2e-2, rtol=3e-2)
    hyper = {"lr": 0.1, "momentum": 0.9, "dampening": 0.25, "weight_decay": 0.05}
    got = student.call("sgd_state_keys", values=values[:2], hyper=hyper, steps=2)
    ps = [torch.nn.Parameter(v.clone()) for v in values[:2]]
    ref = torch.optim.SGD(ps, foreach=False, **hyper)
    for _ in range(2):
        for p in ps:
            p.grad = torch.ones_like(p)
        ref.step()
    for i, (buf, p) in enumerate(zip(got["buffers"], ps)):
        want = ref.state[p]["momentum_buffer"]
        where = (f"state[p]['momentum_buffer'] of bfloat16 parameter {i} after 2 steps of MomentumSGD(params, "
                 f"**{hyper}) with a gradient of ones")
        if not isinstance(buf, torch.Tensor):
            fail(f"{where} is {buf!r}, not a tensor")
        expect_equal((tuple(buf.shape), buf.dtype), (tuple(want.shape), want.dtype),
                     f"the (shape, dtype) of {where} (clause: the momentum buffer as a tensor of p's shape, dtype and "
                     "device, as torch.optim.SGD keeps it)")
        expect_close(buf, want, where, atol=2e-2, rtol=3e-2)


@pytest.mark.parametrize("resume_at", range(4))
def test_resume_every_step(student, gen, resume_at):
    """state_dict() loaded into a fresh MomentumSGD continues exactly"""
    groups = CONFIGS["momentum with dampening and weight decay"]
    values, grads = draw(gen, steps=5)
    set_hyper = [[0, 0, {"lr": 0.04}]]  # as a scheduler would: the saved lr is not the constructor's
    fresh_other = resume_at % 2 == 1  # built with other hyperparameters: load_state_dict() brings the saved ones
    res = student.call("sgd_run", values=values, groups=groups, grads=grads, resume_at=resume_at, via="mine",
                       set_hyper=set_hyper, fresh_other=fresh_other)
    fresh = ("a fresh MomentumSGD built as MomentumSGD([{'params': ...} per group], lr=0.5) (the loaded param_groups "
             "hold the saved hyperparameters; read them at every step())" if fresh_other else "a fresh MomentumSGD")
    compare(res, reference(values, groups, grads, set_hyper),
            describe("group 0's lr set to 0.04 before step 1, saved with state_dict() after step %d, loaded into %s"
                     % (resume_at + 1, fresh), groups))


@pytest.mark.parametrize("via", ["from_torch", "to_torch"])
def test_state_dict_shared_with_torch(student, gen, via):
    """a state_dict of torch.optim.SGD loads into MomentumSGD, and the other way round"""
    groups = CONFIGS["nesterov"]
    values, grads = draw(gen, steps=4)
    res = student.call("sgd_run", values=values, groups=groups, grads=grads, resume_at=1, via=via)
    how = ("torch.optim.SGD for 2 steps, then its state_dict() loaded into a fresh MomentumSGD"
           if via == "from_torch" else "MomentumSGD for 2 steps, then its state_dict() loaded into torch.optim.SGD")
    compare(res, reference(values, groups, grads), describe(how, groups))


REJECT = [{"lr": -0.1}, {"lr": 0.1, "momentum": -0.5}, {"lr": 0.1, "weight_decay": -1e-4},
          {"lr": 0.1, "nesterov": True}, {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "nesterov": True},
          {"lr": 0.1, "momentum": 0.9, "dampening": -0.1, "nesterov": True}]  # dampening == 0, not <= 0
ACCEPT = [{"lr": 0.0}, {"lr": 0.1, "momentum": 0.9, "nesterov": True}, {"lr": 0.1, "momentum": 0.9, "dampening": 1.0},
          {"lr": 0.1, "momentum": 1.0},  # only a negative momentum is rejected: torch.optim.SGD takes 1.0
          # without nesterov torch.optim.SGD takes any dampening, outside [0, 1] too: the text lists no ValueError
          {"lr": 0.1, "momentum": 0.9, "dampening": 1.5}, {"lr": 0.1, "momentum": 0.9, "dampening": -0.5}]


def test_rejects_bad_arguments(student, gen):
    """ValueError for a negative lr, momentum or weight_decay, and for nesterov without momentum > 0 and
    dampening == 0; valid arguments are accepted"""
    value, grad = torch.randn(4, generator=gen, dtype=f64), torch.randn(4, generator=gen, dtype=f64)
    res = student.call("sgd_rejects", reject=REJECT, accept=ACCEPT, value=value, grad=grad)
    for kwargs, r in zip(REJECT, res["rejected"]):
        expect_raises(r, "ValueError", f"MomentumSGD([p], **{kwargs}) (clause: ValueError for a negative lr, momentum "
                                       "or weight_decay, and for nesterov=True unless momentum > 0 and dampening == 0)")
    for kwargs, r, got in zip(ACCEPT, res["accepted"], res["stepped"]):
        expect(not r["raised"], f"MomentumSGD([p], **{kwargs}) raised {r['type']}: {r['message']}; "
                                "these arguments are valid (torch.optim.SGD takes them; the text's ValueErrors are "
                                "the only ones)")
        p = torch.nn.Parameter(value.clone())
        opt = torch.optim.SGD([p], foreach=False, **kwargs)
        p.grad = grad.clone()
        opt.step()
        expect_close(got, p.detach(), f"p after one step of MomentumSGD([p], **{kwargs})", atol=1e-14, rtol=1e-12)


def test_same_grad_stepped_twice(student, gen):
    """step() several times on the same .grad tensors (no new backward in between) matches torch.optim.SGD, and
    the .grad is still unchanged: the momentum buffer is a copy, not the gradient itself"""
    groups = CONFIGS["nesterov and momentum without weight decay"]
    values, grads = draw(gen, steps=1)
    res = student.call("sgd_repeat", values=values, groups=groups, grads=grads[0], steps=3)
    what = describe("nesterov and momentum without weight decay", groups) + \
        ", step() called 3 times on the same .grad tensors"
    compare(res, reference(values, groups, grads * 3), what)
    for i, (g, e) in enumerate(zip(res["grads_after"][-1], grads[0])):
        expect_close(g, e, f"{what}: .grad of parameter {i} afterwards (step() must leave it as it was)",
                     atol=0, rtol=0)


def test_non_finite_grad_is_stepped(student, gen):
    """a .grad holding inf or nan is applied as torch.optim.SGD applies it: only None skips a parameter"""
    groups = CONFIGS["momentum with dampening and weight decay"]
    values, grads = draw(gen, steps=3)
    grads[0][0][1, 0] = float("inf")
    grads[1][2] = torch.tensor(float("nan"), dtype=f64)
    res = student.call("sgd_run", values=values, groups=groups, grads=grads)
    want = reference(values, groups, grads)
    what = describe("parameter 0's .grad holds inf at step 1, parameter 2's is nan at step 2", groups)
    if len(res["params"]) != len(want):
        fail(f"{what}: {len(res['params'])} steps reported, expected {len(want)}")
    for step, (got, exp) in enumerate(zip(res["params"], want), start=1):
        if len(got) != len(exp):
            fail(f"{what}: {len(got)} parameters reported after step {step}, expected {len(exp)}")
        for i, (g, e) in enumerate(zip(got, exp)):
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.SGD applies a non-finite "
                               "gradient; clause: only None skips a parameter)", atol=1e-14, rtol=1e-12,
                         equal_nan=True)


def test_frozen_parameter_with_grad_is_stepped(student, gen):
    """only .grad None skips a parameter: one that does not require grad but has a .grad is stepped, as torch's SGD does"""
    groups = CONFIGS["momentum with dampening and weight decay"]
    values, grads = draw(gen, steps=3)
    res = student.call("sgd_run", values=values, groups=groups, grads=grads, frozen=[1])
    compare(res, reference(values, groups, grads), describe("parameter 1 has requires_grad=False and a .grad", groups))


# the text's order after params: lr, momentum, dampening, weight_decay, nesterov (torch.optim.SGD's order too)
BY_POSITION = [[0.1, 0.9, 0.3, 0.01], [0.05, 0.8, 0.0, 0.2, True]]


def test_arguments_by_position(student, gen):
    """MomentumSGD(params, lr, momentum, dampening, weight_decay, nesterov) given by position, in the text's order, steps as torch.optim.SGD given the same arguments by position"""
    value = torch.randn(4, generator=gen, dtype=f64)
    grads = [torch.randn(4, generator=gen, dtype=f64) for _ in range(3)]
    for args in BY_POSITION:
        call = f"MomentumSGD([p], {', '.join(map(repr, args))})"
        res = student.call("optimizer_by_position", name="MomentumSGD", value=value, grads=grads, args=args)
        r = res["made"]
        expect(not r["raised"], f"{call} raised {r['type']}: {r['message']}; the text's signature is "
                                "MomentumSGD(params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False)")
        p = torch.nn.Parameter(value.clone())
        ref = torch.optim.SGD([p], *args, foreach=False)
        for step, (g, got) in enumerate(zip(grads, res["params"]), start=1):
            p.grad = g.clone()
            ref.step()
            expect_close(got, p.detach(), f"p after step {step} of {call} (torch.optim.SGD([p], "
                                          f"{', '.join(map(repr, args))}) gives the expected value; clause: "
                                          "MomentumSGD(params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, "
                                          "nesterov=False), the arguments in this order)", atol=1e-14, rtol=1e-12)


def test_non_finite_weight_is_stepped(student, gen):
    """a weight holding inf or nan steps as torch.optim.SGD steps it: a group with weight_decay 0 adds no decay term (0 * inf would be nan)"""
    for name in ("nesterov and momentum without weight decay", "momentum with dampening and weight decay"):
        groups = CONFIGS[name]
        values, grads = draw(gen, steps=2)
        values[0][0, 0], values[0][2, 1] = float("inf"), float("nan")
        values[1][1] = -float("inf")
        values[2] = torch.tensor(float("inf"), dtype=f64)
        res = student.call("sgd_run", values=values, groups=groups, grads=grads)
        want = reference(values, groups, grads)
        what = describe(f"{name}; parameter 0 starts with inf at [0, 0] and nan at [2, 1], parameter 1 with -inf at "
                        "[1], parameter 2 is inf", groups)
        if len(res["params"]) != len(want):
            fail(f"{what}: {len(res['params'])} steps reported, expected {len(want)}")
        for step, (got, exp) in enumerate(zip(res["params"], want), start=1):
            for i, (g, e) in enumerate(zip(got, exp)):
                expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.SGD gives the expected "
                                   "value: it adds weight_decay * p only where weight_decay is not 0, so an inf "
                                   "weight stays inf; clause: every parameter equals what torch.optim.SGD gives from "
                                   "the same start)", atol=1e-14, rtol=1e-12, equal_nan=True)


def test_params_given_as_generator(student, gen):
    """parameters given as a generator (as model.parameters() is) are all stepped, as torch.optim.SGD steps them"""
    values, grads = draw(gen, steps=2)
    hyper = {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}
    res = student.call("optimizer_from_generator", name="MomentumSGD", values=values, grads=grads, hyper=hyper)
    call = "MomentumSGD((p for p in params), lr=0.1, momentum=0.9, weight_decay=0.01) (a generator, as " \
           "model.parameters() is)"
    r = res["made"]
    expect(not r["raised"], f"{call} raised {r['type']}: {r['message']}")
    expect_equal(res["in_groups"], len(values), f"{call}: the number of parameters in opt.param_groups (the "
                                                "generator can be read once: whatever reads it before "
                                                "super().__init__ takes those parameters away)")
    params = [torch.nn.Parameter(v.clone()) for v in values]
    ref = torch.optim.SGD((p for p in params), foreach=False, **hyper)
    for step, (gs, got) in enumerate(zip(grads, res["params"]), start=1):
        for p, g in zip(params, gs):
            p.grad = None if g is None else g.clone()
        ref.step()
        for i, (mine, want) in enumerate(zip(got, params)):
            expect_close(mine, want.detach(), f"parameter {i} after step {step} of {call}, against "
                                              "torch.optim.SGD built the same way", atol=1e-14, rtol=1e-12)
