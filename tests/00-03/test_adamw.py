"""Hidden checks of ScratchAdamW (exercise 3) against torch.optim.AdamW (foreach=False) run on the judge.

Tolerance: relative 1e-12 (atol 1e-14) in float64, as for MomentumSGD: torch writes the update with fused
in-place calls (lerp_, addcmul_, addcdiv_) whose last bit a plain formula need not reproduce, while every
algorithmic slip (bias correction, eps, decay, betas, step count) moves the result by far more."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal, expect_raises, fail

pytestmark = pytest.mark.task("adamw")
f64 = torch.float64
TOL = dict(atol=1e-14, rtol=1e-12)

CONFIGS = {
    "two groups, decay in one": [
        {"idx": [0, 1], "hyper": {"lr": 0.1, "betas": (0.8, 0.95), "eps": 1e-3, "weight_decay": 0.3}},
        {"idx": [2], "hyper": {"lr": 0.03, "betas": (0.6, 0.9), "eps": 1e-8, "weight_decay": 0.0}}],
    "defaults in one group": [
        {"idx": [0], "hyper": {"lr": 0.05}},
        {"idx": [1, 2], "hyper": {"lr": 0.2, "betas": (0.5, 0.7), "eps": 0.05, "weight_decay": 1.0}}],
    "one group, beta1 0": [{"idx": [0, 1, 2], "hyper": {"lr": 0.07, "betas": (0.0, 0.99), "eps": 1e-2,
                                                        "weight_decay": 0.2}}],
}


def torch_groups(params, groups):
    return [dict(g["hyper"], params=[params[i] for i in g["idx"]]) for g in groups]


def draw(gen, steps=4, none_at=(), zero_at=((1, 1),)):
    """Values and gradients; the gradients at (step, parameter) in zero_at are all zeros (a gradient, not None:
    the parameter is still decayed, its moments updated and the step counted)."""
    shapes = [(3, 2), (4,), ()]
    values = [torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    grads = [[None if (step, i) in none_at else torch.randn(s, generator=gen, dtype=f64) * 0.3
              for i, s in enumerate(shapes)] for step in range(steps)]
    for step, i in zero_at:
        if step < steps and grads[step][i] is not None:
            grads[step][i] = torch.zeros_like(grads[step][i])
    return values, grads


def reference(values, groups, grads, repeat=False, set_hyper=()):
    """torch.optim.AdamW's parameters and state after every step."""
    params = [torch.nn.Parameter(v.clone()) for v in values]
    opt = torch.optim.AdamW(torch_groups(params, groups), lr=groups[0]["hyper"]["lr"], foreach=False)
    out = {"params": [], "state": []}
    for step, gs in enumerate(grads):
        if step == 0 or not repeat:
            for p, g in zip(params, gs):
                p.grad = None if g is None else g.clone()
        for when, gi, hyper in set_hyper:  # as adamw_run does: written into param_groups just before that step
            if when == step:
                opt.param_groups[gi].update({k: tuple(v) if k == "betas" else v for k, v in hyper.items()})
        opt.step()
        out["params"].append([p.detach().clone() for p in params])
        out["state"].append([opt.state.get(p, {}) and {k: v.clone() for k, v in opt.state[p].items()}
                             for p in params])
    return out


def compare(res, want, what, state=False, tol=None):
    if len(res["params"]) != len(want["params"]):
        fail(f"{what}: {len(res['params'])} steps reported, expected {len(want['params'])}")
    for step, (got, exp) in enumerate(zip(res["params"], want["params"]), start=1):
        for i, (g, e) in enumerate(zip(got, exp)):
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.AdamW gives the expected "
                               "value)", **(tol or TOL))
        if not state:
            continue
        for i, (g, e) in enumerate(zip(res["state"][step - 1], want["state"][step - 1])):
            if not e:
                expect_equal(g["keys"], [], f"{what}: the keys of state[p] of parameter {i} after step {step} "
                                            "(it has had no gradient yet)")
                continue
            expect_equal(g["keys"], ["exp_avg", "exp_avg_sq", "step"],
                         f"{what}: the keys of state[p] of parameter {i} after step {step}")
            expect(isinstance(g["step"], float), f"{what}: state[p]['step'] of parameter {i} after step {step} is "
                                                 f"{g['step']}; expected a number or a 0-dim tensor (clause: \"step\" "
                                                 "as a number or a 0-dim tensor)")
            expect_equal(g["step"], float(e["step"]), f"{what}: state[p]['step'] of parameter {i} after step "
                                                      f"{step} (the steps this parameter has taken)")
            for key in ("exp_avg", "exp_avg_sq"):
                if isinstance(g[key], torch.Tensor):
                    expect_equal((tuple(g[key].shape), g[key].dtype), (tuple(e[key].shape), e[key].dtype),
                                 f"{what}: the (shape, dtype) of state[p]['{key}'] of parameter {i} after step {step} "
                                 "(clause: the two moments as tensors of p's shape, dtype and device)")
                expect_close(g[key], e[key], f"{what}: state[p]['{key}'] of parameter {i} after step {step}",
                             **(tol or TOL))


def describe(name, groups):
    return f"ScratchAdamW with param groups {[g['hyper'] for g in groups]} ({name})"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_matches_torch_adamw(student, gen, name):
    """every parameter and its exp_avg, exp_avg_sq and step follow torch.optim.AdamW step for step"""
    groups = CONFIGS[name]
    values, grads = draw(gen, steps=5)
    res = student.call("adamw_run", values=values, groups=groups, grads=grads)
    compare(res, reference(values, groups, grads), describe(name, groups), state=True)


def test_grad_none_skipped(student, gen):
    """a parameter whose .grad is None is not changed, gets no state and does not count the step"""
    groups = CONFIGS["two groups, decay in one"]
    none_at = {(0, 0), (1, 0), (0, 2), (2, 2), (3, 1)}
    values, grads = draw(gen, steps=5, none_at=none_at)
    # parameter 3 is empty (shape (0,)) with a .grad of shape (0,) at every step: it has a .grad, so torch counts
    # its steps and keeps its (empty) moments; only None skips a parameter
    groups = [groups[0], dict(groups[1], idx=groups[1]["idx"] + [3])]
    values = values + [torch.zeros(0, dtype=f64)]
    grads = [gs + [torch.zeros(0, dtype=f64)] for gs in grads]
    res = student.call("adamw_run", values=values, groups=groups, grads=grads)
    what = describe("some gradients None; parameter 3 is empty, shape (0,), with a .grad of shape (0,) at every "
                    "step, which torch.optim.AdamW steps (clause: only None skips a parameter)", groups)
    expect_close(res["params"][1][0], values[0], f"{what}: parameter 0 after two steps with .grad None",
                 atol=0, rtol=0)
    compare(res, reference(values, groups, grads), what, state=True)
    for step in range(len(grads)):
        want = [i for i in range(len(grads[0])) if any(gs[i] is not None for gs in grads[:step + 1])]
        expect_equal(res.get("in_state", [None] * len(grads))[step], want,
                     f"{what}: the parameters that are keys of opt.state after step {step + 1} (a parameter whose "
                     ".grad was None at every step so far gets no state, not even an empty dict: torch.optim.AdamW's "
                     "opt.state has no key for it and its state_dict()['state'] no entry; self.state[p] read before "
                     "the None check makes one)")


def test_state_on_the_parameters_device(student):
    """exp_avg and exp_avg_sq live on the parameter's device (parameters on the meta device, a stand-in for a GPU)"""
    res = student.call("adamw_on_meta", shapes=[[3, 2], [4]], hyper={"lr": 0.1, "weight_decay": 0.1}, steps=2)
    what = "ScratchAdamW stepping two float64 parameters on the meta device (a stand-in for a GPU)"
    off = [(i, k, d) for i, m in enumerate(res["moments"]) for k, d in m.items() if d != "meta"]
    expect(not off, f"{what}: [parameter, state key, device] {off}: the moments must be on the parameter's device "
                    "(clause: tensors of p's shape, dtype and device; torch.zeros(p.shape) without device= is on the CPU)")
    kept = [sorted(m) for m in res["moments"]]
    expect(kept == [["exp_avg", "exp_avg_sq"]] * 2,
           f"{what}: state[p] kept the moments {kept}" + (f"; step() raised {res['error']}" if res["error"] else ""))


# the parameter dtype, its name and the tolerance its rounding allows (bfloat16 keeps 8 significant bits: a fused
# call and a plain formula differ by an ulp or two per step)
LOW_PRECISION = {"float32": (torch.float32, dict(atol=1e-6, rtol=1e-5)),
                 "bfloat16": (torch.bfloat16, dict(atol=2e-2, rtol=3e-2))}


@pytest.mark.parametrize("dtype", sorted(LOW_PRECISION))
def test_state_follows_parameter_dtype(student, gen, dtype):
    """float32 and bfloat16 parameters: exp_avg and exp_avg_sq are tensors of p's shape and dtype, as torch.optim.AdamW keeps them (not float32 or float64 copies), and the steps match it to that dtype's rounding"""
    kind, tol = LOW_PRECISION[dtype]
    groups = CONFIGS["two groups, decay in one"]
    values, grads = draw(gen, steps=3)
    values = [v.to(kind) for v in values]
    grads = [[g.to(kind) for g in gs] for gs in grads]
    res = student.call("adamw_run", values=values, groups=groups, grads=grads)
    compare(res, reference(values, groups, grads), describe(f"{dtype} parameters", groups), state=True, tol=tol)


# float16 parameters with gradients of 260 to 700: g**2 (up to 490000) and v / (1 - beta2**t) pass float16's largest
# value, 65504, while (1 - beta2) * g**2 (beta2 0.99 and 0.95) and the moments themselves stay finite
FP16_GROUPS = [{"idx": [0, 1], "hyper": {"lr": 0.1, "betas": (0.9, 0.99), "eps": 1e-8, "weight_decay": 0.1}},
               {"idx": [2], "hyper": {"lr": 0.05, "betas": (0.8, 0.95), "eps": 1e-6, "weight_decay": 0.0}},
               # parameter 3 (float32) with gradients of +-4e19: g**2 = 1.6e39 overflows float32, torch's
               # addcmul_ computes (1 - beta2) * g * g = 1.6e33; parameter 4 (float16) with a gradient of 65504 at
               # every step: m / (1 - beta1**t) rounds past 65504 to inf in float16 at step 2, torch's addcdiv_
               # divides by it in the scalar -lr / (1 - beta1**t)
               {"idx": [3, 4], "hyper": {"lr": 0.1, "betas": (0.99, 0.999999), "eps": 1e-8, "weight_decay": 0.0}}]


def test_float16_large_gradients(student, gen):
    """float16 parameters with gradients of 256 or more (whose squares pass float16's largest value) step as torch.optim.AdamW steps them: no inf in exp_avg_sq, no weight stuck"""
    values, grads = draw(gen, steps=3, zero_at=())
    big = lambda g: g.sign() * (260.0 + 440.0 * torch.rand(g.shape, generator=gen, dtype=f64))  # noqa: E731
    values = [v.half() for v in values]
    grads = [[(big(g) if i != 1 else g).half() for i, g in enumerate(gs)] for gs in grads]
    values += [torch.tensor([0.5, -1.0]), torch.tensor([1.0, -0.5], dtype=torch.float16)]
    grads = [gs + [torch.tensor([4e19, -4e19]), torch.tensor([65504.0, -65504.0], dtype=torch.float16)]
             for gs in grads]
    res = student.call("adamw_run", values=values, groups=FP16_GROUPS, grads=grads)
    what = describe("float16 parameters 0 and 2 with gradients of magnitude 260 to 700, parameter 1 with small ones; "
                    "float32 parameter 3 with gradients [4e19, -4e19] (g * g overflows float32; torch computes "
                    "(1 - beta2) * g * g inside addcmul_), float16 parameter 4 with gradients [65504, -65504] (torch "
                    "divides m by 1 - beta1**t in the scalar of addcdiv_; m / (1 - beta1**t) held in float16 is inf); "
                    "clause: every parameter equals what torch.optim.AdamW gives; float16 parameters included, never "
                    "hold g**2 or v / (1 - beta2**t) in float16",
                    FP16_GROUPS)
    want = reference(values, FP16_GROUPS, grads)
    compare(res, want, what, tol=dict(atol=1e-2, rtol=1e-2))
    # the moments: float16 terms of up to 630 (b1 * m) and 4900 (b2 * v) cancel, so a plain formula and torch's
    # lerp_/addcmul_ part by up to 0.25 and 64 (300 draws); an inf where torch is finite fails whatever the tolerance
    compare(res, want, what + " (moments to float16 rounding of their terms)", state=True,
            tol=dict(atol=1.0, rtol=0.25))


def test_step_count_past_bfloat16_precision(student, gen):
    """state[p]['step'] counts every step exactly, past 256 too, for a bfloat16 parameter (a count kept in bfloat16 stops at 256)"""
    groups = [{"idx": [0], "hyper": {"lr": 1e-3, "weight_decay": 0.0}}]
    value = torch.randn(2, generator=gen, dtype=f64).bfloat16()
    grad = torch.randn(2, generator=gen, dtype=f64).bfloat16()
    steps = 260
    res = student.call("adamw_run", values=[value], groups=groups, grads=[[grad]] * steps, repeat=True)
    what = (f"ScratchAdamW([p], lr=1e-3, weight_decay=0.0) on a bfloat16 parameter, step() called {steps} times on "
            "the same .grad")
    if len(res["state"]) != steps:
        fail(f"{what}: {len(res['state'])} steps reported, expected {steps}")
    for t in (255, 256, 257, 258, steps):
        got = res["state"][t - 1][0]["step"]
        expect_equal(got, float(t), f"{what}: state[p]['step'] after step {t} (clause: \"step\" with the "
                                    "values torch.optim.AdamW keeps, the steps this parameter has taken; a 0-dim "
                                    "tensor in p's bfloat16 holds no integer past 256 exactly)")


def test_grad_left_unchanged(student, gen):
    """step() never changes a .grad"""
    for name in sorted(CONFIGS):
        groups = CONFIGS[name]
        values, grads = draw(gen, steps=3)
        res = student.call("adamw_run", values=values, groups=groups, grads=grads)
        for step, (got, given) in enumerate(zip(res["grads_after"], grads), start=1):
            for i, (g, e) in enumerate(zip(got, given)):
                expect_close(g, e, f"{describe(name, groups)}: .grad of parameter {i} after step {step} "
                                   "(step() must leave it as it was)", atol=0, rtol=0)


def test_same_grad_stepped_twice(student, gen):
    """step() several times on the same .grad tensors matches torch.optim.AdamW, and the .grad is unchanged"""
    groups = CONFIGS["defaults in one group"]
    values, grads = draw(gen, steps=3)
    res = student.call("adamw_run", values=values, groups=groups, grads=grads, repeat=True)
    what = describe("defaults in one group", groups) + ", step() called 3 times on the same .grad tensors"
    compare(res, reference(values, groups, grads, repeat=True), what, state=True)
    for i, (g, e) in enumerate(zip(res["grads_after"][-1], grads[0])):
        expect_close(g, e, f"{what}: .grad of parameter {i} afterwards (step() must leave it as it was)",
                     atol=0, rtol=0)


@pytest.mark.parametrize("resume_at", range(4))
def test_resume_every_step(student, gen, resume_at):
    """state_dict() loaded into a fresh ScratchAdamW continues exactly"""
    groups = CONFIGS["two groups, decay in one"]
    values, grads = draw(gen, steps=5, none_at={(0, 1)})
    fresh_defaults = resume_at % 2 == 1  # a fresh ScratchAdamW built with its defaults: load_state_dict() brings the groups' values
    res = student.call("adamw_run", values=values, groups=groups, grads=grads, resume_at=resume_at,
                       fresh_defaults=fresh_defaults)
    fresh = ("a fresh ScratchAdamW built with its default hyperparameters (the loaded param_groups hold the saved "
             "ones; read them at every step())" if fresh_defaults else "a fresh ScratchAdamW")
    compare(res, reference(values, groups, grads),
            describe("saved with state_dict() after step %d, loaded into %s" % (resume_at + 1, fresh), groups),
            state=True)


def test_hyperparameters_read_at_each_step(student, gen):
    """hyperparameters changed in param_groups between steps (as a scheduler sets lr) take effect from that step on, as in torch.optim.AdamW"""
    groups = CONFIGS["two groups, decay in one"]
    values, grads = draw(gen, steps=5)
    # group 1 at lr 0 for its first two steps (a warm-up from 0): torch still counts them and updates the moments
    set_hyper = [[0, 1, {"lr": 0.0}], [1, 0, {"lr": 0.02}], [2, 1, {"lr": 0.3, "weight_decay": 0.1}],
                 [3, 0, {"betas": (0.5, 0.8), "eps": 0.01}], [4, 1, {"lr": 0.05}]]
    res = student.call("adamw_run", values=values, groups=groups, grads=grads, set_hyper=set_hyper)
    compare(res, reference(values, groups, grads, set_hyper=set_hyper),
            describe("two groups, decay in one", groups) + " with param_groups changed before steps 1 to 5 "
            f"([step index, group, new values]: {set_hyper}; clause: hyperparameters changed in self.param_groups "
            "between steps take effect, read them at every step(); at lr 0 torch.optim.AdamW still counts the step "
            "and updates the moments)", state=True)


NAN = float("nan")  # not in [0, 1), so a beta check written as b < 0 or b >= 1 misses it
REJECT = [{"lr": -0.1}, {"lr": 0.1, "eps": -1e-8}, {"lr": 0.1, "weight_decay": -1e-4},
          {"lr": 0.1, "betas": (1.0, 0.9)}, {"lr": 0.1, "betas": (0.9, 1.0)}, {"lr": 0.1, "betas": (-0.1, 0.9)},
          {"lr": 0.1, "betas": (0.9, -0.5)}, {"lr": 0.1, "betas": (NAN, 0.9)}, {"lr": 0.1, "betas": (0.9, NAN)}]
ACCEPT = [{"lr": 0.0}, {"lr": 0.1, "betas": (0.0, 0.0), "eps": 0.0}, {"lr": 0.1, "weight_decay": 0.0},
          # torch.optim.AdamW bounds lr, eps and weight_decay only below: lr * weight_decay past 1 is valid too
          {"lr": 2.0, "weight_decay": 0.6}, {"lr": 0.1, "weight_decay": 20.0, "eps": 1.5}]


def test_rejects_bad_arguments(student, gen):
    """ValueError for a negative lr, eps or weight_decay and for a beta outside [0, 1); valid arguments are
    accepted and step like torch.optim.AdamW"""
    value = torch.randn(4, generator=gen, dtype=f64)
    grad = torch.randn(4, generator=gen, dtype=f64) + 3.0
    res = student.call("adamw_rejects", reject=REJECT, accept=ACCEPT, value=value, grad=grad)
    for kwargs, r in zip(REJECT, res["rejected"]):
        expect_raises(r, "ValueError", f"ScratchAdamW([p], **{kwargs}) (clause: ValueError for a negative lr, eps or "
                                       "weight_decay and for a beta outside [0, 1), NaN included)")
    for kwargs, r, got in zip(ACCEPT, res["accepted"], res["stepped"]):
        expect(not r["raised"], f"ScratchAdamW([p], **{kwargs}) raised {r['type']}: {r['message']}; "
                                "these arguments are valid (torch.optim.AdamW takes them; the text's ValueErrors are "
                                "the only ones)")
        p = torch.nn.Parameter(value.clone())
        opt = torch.optim.AdamW([p], foreach=False, **kwargs)
        p.grad = grad.clone()
        opt.step()
        expect_close(got, p.detach(), f"p after one step of ScratchAdamW([p], **{kwargs})", **TOL)


def test_non_finite_grad_is_stepped(student, gen):
    """a .grad holding inf or nan is applied as torch.optim.AdamW applies it (the step counted): only None skips a parameter"""
    groups = CONFIGS["two groups, decay in one"]
    values, grads = draw(gen, steps=3)
    grads[0][0][1, 0] = float("inf")
    grads[1][2] = torch.tensor(float("nan"), dtype=f64)
    res = student.call("adamw_run", values=values, groups=groups, grads=grads)
    want = reference(values, groups, grads)
    what = describe("parameter 0's .grad holds inf at step 1, parameter 2's is nan at step 2", groups)
    if len(res["params"]) != len(want["params"]) or len(res["state"]) != len(want["state"]):
        fail(f"{what}: {len(res['params'])} steps reported, expected {len(want['params'])}")
    for step, (got, exp, st, est) in enumerate(zip(res["params"], want["params"], res["state"], want["state"]),
                                               start=1):
        if len(got) != len(exp) or len(st) != len(est):
            fail(f"{what}: {len(got)} parameters reported after step {step}, expected {len(exp)}")
        for i, (g, e, s, es) in enumerate(zip(got, exp, st, est)):
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.AdamW applies a non-finite "
                               "gradient; clause: only None skips a parameter)", equal_nan=True, **TOL)
            expect_equal(s["step"], float(es["step"]), f"{what}: state[p]['step'] of parameter {i} after step {step} "
                                                       "(a non-finite gradient is a gradient: the step counts)")


def test_frozen_parameter_with_grad_is_stepped(student, gen):
    """only .grad None skips a parameter: one that does not require grad but has a .grad is stepped, as torch's AdamW does"""
    groups = CONFIGS["two groups, decay in one"]
    values, grads = draw(gen, steps=3)
    res = student.call("adamw_run", values=values, groups=groups, grads=grads, frozen=[0])
    compare(res, reference(values, groups, grads), describe("parameter 0 has requires_grad=False and a .grad", groups))


# the text's order after params: lr, betas, eps, weight_decay (torch.optim.AdamW's order too)
BY_POSITION = [[0.05, (0.8, 0.99), 1e-6, 0.1], [0.2, (0.5, 0.9), 0.03]]


def test_arguments_by_position(student, gen):
    """ScratchAdamW(params, lr, betas, eps, weight_decay) given by position, in the text's order, steps as torch.optim.AdamW given the same arguments by position"""
    value = torch.randn(4, generator=gen, dtype=f64)
    grads = [torch.randn(4, generator=gen, dtype=f64) for _ in range(3)]
    for args in BY_POSITION:
        call = f"ScratchAdamW([p], {', '.join(map(repr, args))})"
        res = student.call("optimizer_by_position", name="ScratchAdamW", value=value, grads=grads, args=args)
        r = res["made"]
        expect(not r["raised"], f"{call} raised {r['type']}: {r['message']}; the text's signature is "
                                "ScratchAdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2)")
        p = torch.nn.Parameter(value.clone())
        ref = torch.optim.AdamW([p], *args, foreach=False)
        for step, (g, got) in enumerate(zip(grads, res["params"]), start=1):
            p.grad = g.clone()
            ref.step()
            expect_close(got, p.detach(), f"p after step {step} of {call} (torch.optim.AdamW([p], "
                                          f"{', '.join(map(repr, args))}) gives the expected value; clause: "
                                          "ScratchAdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, "
                                          "weight_decay=1e-2), the arguments in this order)", **TOL)


def test_zero_eps_divides_as_torch(student, gen):
    """eps = 0 (valid: only a negative eps raises) divides as torch.optim.AdamW does where v is 0: 0 / 0 is nan, m / 0 is inf, no guard"""
    groups = [{"idx": [0], "hyper": {"lr": 0.1, "betas": (0.9, 0.999), "eps": 0.0, "weight_decay": 0.0}},
              {"idx": [1], "hyper": {"lr": 0.05, "betas": (0.8, 0.99), "eps": 0.0, "weight_decay": 0.1}}]
    values = [torch.randn(4, generator=gen, dtype=f64), torch.randn(3, generator=gen, dtype=f64)]
    # 1e-170 squares to 0 in float64 (below its smallest subnormal), so v = 0 while m = (1 - beta1) * g is not
    first = [torch.tensor([0.0, 1e-170, -0.5, 2.0], dtype=f64), torch.tensor([0.0, 0.3, -1e-170], dtype=f64)]
    second = [torch.tensor([0.0, 1e-170, 0.25, -1.0], dtype=f64), torch.tensor([0.0, -0.7, 0.4], dtype=f64)]
    grads = [first, second]
    res = student.call("adamw_run", values=values, groups=groups, grads=grads)
    want = reference(values, groups, grads)
    what = describe("eps = 0; gradients [0, 1e-170, -0.5, 2] then [0, 1e-170, 0.25, -1] for parameter 0, "
                    "[0, 0.3, -1e-170] then [0, -0.7, 0.4] for parameter 1", groups)
    if len(res["params"]) != len(want["params"]):
        fail(f"{what}: {len(res['params'])} steps reported, expected {len(want['params'])}")
    for step, (got, exp) in enumerate(zip(res["params"], want["params"]), start=1):
        for i, (g, e) in enumerate(zip(got, exp)):
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.AdamW gives the expected value: "
                               "where v is 0 and eps is 0 it divides by 0, nan for m = 0 and -inf or inf for m != 0; "
                               "clause: every parameter equals what torch.optim.AdamW with the same arguments gives, "
                               "and only a negative eps is rejected)", equal_nan=True, **TOL)


def test_non_finite_weight_is_stepped(student, gen):
    """a weight holding inf or nan steps as torch.optim.AdamW steps it: the decay p * (1 - lr * weight_decay) keeps an inf weight inf, with weight_decay 0 too"""
    groups = CONFIGS["two groups, decay in one"]
    values, grads = draw(gen, steps=2)
    values[0][0, 0], values[0][2, 1] = float("inf"), float("nan")
    values[1][1] = -float("inf")
    values[2] = torch.tensor(float("inf"), dtype=f64)
    res = student.call("adamw_run", values=values, groups=groups, grads=grads)
    want = reference(values, groups, grads)
    what = describe("parameter 0 starts with inf at [0, 0] and nan at [2, 1], parameter 1 with -inf at [1], "
                    "parameter 2 (weight_decay 0) is inf", groups)
    if len(res["params"]) != len(want["params"]):
        fail(f"{what}: {len(res['params'])} steps reported, expected {len(want['params'])}")
    for step, (got, exp) in enumerate(zip(res["params"], want["params"]), start=1):
        for i, (g, e) in enumerate(zip(got, exp)):
            expect_close(g, e, f"{what}: parameter {i} after step {step} (torch.optim.AdamW gives the expected value; "
                               "p - lr * weight_decay * p is nan where p is inf; clause: every parameter equals what "
                               "torch.optim.AdamW gives from the same start)", equal_nan=True, **TOL)


def test_params_given_as_generator(student, gen):
    """parameters given as a generator (as model.parameters() is) are all stepped, as torch.optim.AdamW steps them"""
    values, grads = draw(gen, steps=2)
    hyper = {"lr": 0.05, "weight_decay": 0.1}
    res = student.call("optimizer_from_generator", name="ScratchAdamW", values=values, grads=grads, hyper=hyper)
    call = "ScratchAdamW((p for p in params), lr=0.05, weight_decay=0.1) (a generator, as model.parameters() is)"
    r = res["made"]
    expect(not r["raised"], f"{call} raised {r['type']}: {r['message']}")
    expect_equal(res["in_groups"], len(values), f"{call}: the number of parameters in opt.param_groups (the "
                                                "generator can be read once: whatever reads it before "
                                                "super().__init__ takes those parameters away)")
    params = [torch.nn.Parameter(v.clone()) for v in values]
    ref = torch.optim.AdamW((p for p in params), foreach=False, **hyper)
    for step, (gs, got) in enumerate(zip(grads, res["params"]), start=1):
        for p, g in zip(params, gs):
            p.grad = g.clone()
        ref.step()
        for i, (mine, want) in enumerate(zip(got, params)):
            expect_close(mine, want.detach(), f"parameter {i} after step {step} of {call}, against "
                                              "torch.optim.AdamW built the same way", **TOL)
