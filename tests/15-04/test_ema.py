"""Hidden checks for the EMA of model weights (15-04, judge side).

The expected values come from torch.optim.swa_utils.AveragedModel with
get_ema_multi_avg_fn(decay), driven through exactly the same sequence of
live-model states as the submission's EMA.
"""
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings, strategies as st
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_close, expect_equal, fail
from course.judge.strategies import build_model, model_specs

pytestmark = pytest.mark.task("ema")
f64 = torch.float64


def ema_model():
    """Same architecture as probes.ema_model (Linear, BatchNorm1d, ReLU, Linear in float64)."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 3)).double()


def ema_tied_model():
    """Same as probes.ema_tied_model: layers 0 and 2 share one weight."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4)).double()
    model[2].weight = model[0].weight
    return model


def random_states(gen, k):
    """k+1 plausible live-model states (weights, BatchNorm statistics and step counter)."""
    template = ema_model().state_dict()
    states = []
    for step in range(k + 1):
        s = {}
        for name, t in template.items():
            if name.endswith("num_batches_tracked"):
                s[name] = torch.tensor(3 * step + 1, dtype=torch.long)
            elif name.endswith("running_var"):
                s[name] = torch.rand(t.shape, generator=gen, dtype=f64) + 0.5
            else:
                s[name] = torch.randn(t.shape, generator=gen, dtype=f64)
        states.append(s)
    return states


def reference_history(states, decay, use_buffers, make_model=None):
    model = (make_model or ema_model)()
    model.load_state_dict(states[0])
    avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=use_buffers)
    hist = []
    for s in states[1:]:
        model.load_state_dict(s)
        avg.update_parameters(model)
        hist.append({k: v.detach().clone() for k, v in avg.module.state_dict().items()})
    return hist


def is_param(name):
    return name.endswith(("weight", "bias"))


def compare_state(got, want, live, what, *, average_buffers, tol=1e-10):
    if not isinstance(got, dict) or set(got) != set(want):
        fail(f"{what}: ema.module.state_dict() should have the keys {sorted(want)}, got "
             f"{sorted(got) if isinstance(got, dict) else type(got).__name__}")
    for name in want:
        w = want[name]
        if is_param(name):
            expect_close(got[name], w, f"{what}, parameter '{name}'", atol=tol, rtol=tol)
        elif average_buffers and w.is_floating_point():
            expect_close(got[name], w, f"{what}, buffer '{name}' (average_buffers=True: floating-point buffers "
                                       f"are averaged like parameters)", atol=tol, rtol=tol)
        else:
            why = ("integer buffers such as num_batches_tracked are counters: copy them" if average_buffers
                   else "with average_buffers=False every buffer is copied from the live model")
            expect_close(got[name].double(), live[name].double(), f"{what}, buffer '{name}' ({why})", atol=tol,
                         rtol=tol)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), k=st.integers(1, 6), decay=st.sampled_from([0.0, 0.5, 0.9, 0.99, 0.999]),
       average_buffers=st.booleans())
def test_matches_averaged_model(student, seed, k, decay, average_buffers):
    """EMA matches AveragedModel(multi_avg_fn=get_ema_multi_avg_fn(decay)) after every one of several updates"""
    gen = torch.Generator().manual_seed(seed)
    states = random_states(gen, k)
    want = reference_history(states, decay, use_buffers=average_buffers)
    r = student.call("ema_states", states=states, decay=decay, average_buffers=average_buffers)
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"EMA(model, decay={decay}, average_buffers={average_buffers}) after update "
                                    f"{step} of {k}", average_buffers=average_buffers)


def test_arguments_by_position(student, gen):
    """EMA(model, decay, average_buffers) with every argument by position, as the signature
    EMA(model, decay=0.999, average_buffers=False) the text gives allows, matches AveragedModel"""
    states = random_states(gen, 2)
    want = reference_history(states, 0.9, use_buffers=True)
    what = ("EMA(model, 0.9, True) (decay and average_buffers by position, as the text's signature "
            "EMA(model, decay=0.999, average_buffers=False) takes them: no keyword-only `*`)")
    try:
        r = student.call("ema_states", states=states, decay=0.9, average_buffers=True, positional=True)
    except StudentError as e:
        fail(f"{what}: {e}")
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"{what} after update {step} of 2", average_buffers=True)


def random_states_like(template, gen, k):
    """k+1 random states with the keys, shapes and dtypes of ``template`` (counters increase)."""
    states = []
    for step in range(k + 1):
        s = {}
        for name, t in template.items():
            if not t.is_floating_point():
                s[name] = torch.full_like(t, 3 * step + 1)
            elif name.endswith("running_var"):
                s[name] = torch.rand(t.shape, generator=gen, dtype=t.dtype) + 0.5
            else:
                s[name] = torch.randn(t.shape, generator=gen, dtype=t.dtype)
        states.append(s)
    return states


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=model_specs(norm=True), seed=st.integers(0, 2**31 - 1), k=st.integers(2, 4),
       decay=st.sampled_from([0.5, 0.9]), average_buffers=st.booleans())
def test_nested_model_every_buffer(student, spec, seed, k, decay, average_buffers):
    """EMA on a nested model (BatchNorm inside blocks, a buffer of the model's own): every parameter and every
    buffer follows AveragedModel, not only those of top-level layers"""
    spec = dict(spec, double=True)
    gen = torch.Generator().manual_seed(seed)
    states = random_states_like(build_model(spec).state_dict(), gen, k)
    model = build_model(spec)
    model.load_state_dict(states[0])
    avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=average_buffers)
    want = []
    for s in states[1:]:
        model.load_state_dict(s)
        avg.update_parameters(model)
        want.append({n: v.detach().clone() for n, v in avg.module.state_dict().items()})
    r = student.call("ema_spec_states", spec=spec, states=states, decay=decay, average_buffers=average_buffers)
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"EMA(model, decay={decay}, average_buffers={average_buffers}) on a nested "
                                    f"model (Linear/BatchNorm1d blocks inside nn.Sequential inside the model, hidden "
                                    f"widths {spec['hidden']}, a float buffer 'scale') after update {step} of {k}",
                      average_buffers=average_buffers)


@pytest.mark.parametrize("average_buffers", [False, True])
def test_update_reads_its_argument(student, gen, average_buffers):
    """EMA.update(model) averages the model it is given: a different model of the same architecture at each call
    (as after reloading a checkpoint), not the one the EMA was built from"""
    states = random_states(gen, 3)
    built = ema_model()
    built.load_state_dict(states[0])
    avg = AveragedModel(built, multi_avg_fn=get_ema_multi_avg_fn(0.6), use_buffers=average_buffers)
    want = []
    for s in states[1:]:
        live = ema_model()
        live.load_state_dict(s)
        avg.update_parameters(live)
        want.append({k: v.detach().clone() for k, v in avg.module.state_dict().items()})
    r = student.call("ema_fresh_live", states=states, decay=0.6, average_buffers=average_buffers)
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"EMA(model_a, decay=0.6, average_buffers={average_buffers}) after update "
                                    f"{step} of 3, each call update(model_b) with another model of the same "
                                    f"architecture (model_a left at its construction weights; update() folds in "
                                    f"the model it is passed)", average_buffers=average_buffers)


def ema_model_with_scratch():
    """Same as probes.ema_model_with_scratch: ema_model() plus the non-persistent buffers 'shift' (float64)
    and 'tick' (long), which state_dict() leaves out."""
    model = ema_model()
    model.register_buffer("shift", torch.zeros(3, dtype=f64), persistent=False)
    model.register_buffer("tick", torch.zeros((), dtype=torch.long), persistent=False)
    return model


@pytest.mark.parametrize("average_buffers", [False, True])
def test_non_persistent_buffers(student, gen, average_buffers):
    """EMA: buffers registered with persistent=False (absent from state_dict()) are copied or averaged like
    every other buffer, as AveragedModel does"""
    states = random_states(gen, 3)
    shifts = [torch.randn(3, generator=gen, dtype=f64) for _ in states]
    model = ema_model_with_scratch()
    model.load_state_dict(states[0])
    with torch.no_grad():
        model.shift.copy_(shifts[0])
    avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.5), use_buffers=average_buffers)
    want = []
    for i, (s, shift) in enumerate(zip(states[1:], shifts[1:]), start=1):
        model.load_state_dict(s)
        with torch.no_grad():
            model.shift.copy_(shift)
            model.tick.fill_(10 * i + 1)
        avg.update_parameters(model)
        want.append({"shift": avg.module.shift.detach().clone(), "tick": torch.tensor(10 * i + 1)})
    r = student.call("ema_scratch_buffers", states=states, shifts=shifts, decay=0.5, average_buffers=average_buffers)
    how = ("averaged like the parameters (average_buffers=True)" if average_buffers
           else "copied from the live model (average_buffers=False)")
    for step, (got, w) in enumerate(zip(r["history"], want), start=1):
        what = (f"EMA(model, decay=0.5, average_buffers={average_buffers}) after update {step} of 3, on a model "
                f"with buffers registered with persistent=False")
        for name in ("shift", "tick"):
            if name not in got:
                fail(f"{what}: ema.module has no buffer '{name}' (named_buffers() gives {sorted(got)})")
            why = (f"a float buffer, {how}" if name == "shift" else "an integer buffer (a counter), copied")
            expect_close(got[name].double(), w[name].double(),
                         f"{what}, buffer '{name}' ({why}; such buffers are missing from state_dict(), so walk "
                         f"named_buffers() / buffers(), as AveragedModel does)", atol=1e-10, rtol=1e-10)


def test_first_update_copies(student, gen):
    """EMA: the first update() copies the live weights; the weights at construction do not enter the average"""
    states = random_states(gen, 1)
    r = student.call("ema_states", states=states, decay=0.9)
    got = r["history"][0]
    for name, w in states[1].items():
        if is_param(name):
            if torch.allclose(got[name], 0.9 * states[0][name] + 0.1 * w, atol=1e-10):
                fail(f"EMA(model, 0.9) after its first update(): parameter '{name}' was blended with the weights "
                     f"from construction time; like AveragedModel, the first update must copy the live weights")
            expect_close(got[name], w, f"EMA(model, 0.9) after its first update(), parameter '{name}' (should be a "
                                       f"copy of the live model's)", atol=1e-12, rtol=0)


@pytest.mark.parametrize("average_buffers", [False, True])
def test_first_update_copies_non_finite_construction(student, gen, average_buffers):
    """EMA built on a model whose floating-point weights and buffers are still nan / inf (uninitialised, loaded
    later): the first update() copies, so nothing of them remains, as with AveragedModel"""
    states = random_states(gen, 2)
    states[0] = {k: (torch.where(torch.arange(v.numel()).reshape(v.shape) % 2 == 0, torch.nan, torch.inf)
                     .to(v.dtype) if v.is_floating_point() else v) for k, v in states[0].items()}
    want = reference_history(states, 0.9, use_buffers=average_buffers)
    r = student.call("ema_states", states=states, decay=0.9, average_buffers=average_buffers)
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"EMA(model, decay=0.9, average_buffers={average_buffers}) built while every "
                                    f"floating-point weight and buffer was nan or inf, after update {step} of 2 "
                                    f"(the text: 'the first call copies model's parameters and buffers'; "
                                    f"a lerp or blend with weight 1 keeps nan: copy_ instead)",
                      average_buffers=average_buffers)


def test_ema_on_another_device(student, gen):
    """EMA of a model on a device other than the default (meta, the grader's stand-in for a GPU): self.module's
    parameters and buffers stay on the model's device, as AveragedModel's deep copy does"""
    for average_buffers in (False, True):
        what = (f"EMA(model, decay=0.9, average_buffers={average_buffers}) of a model on the meta device (the "
                f"grader's stand-in for a GPU), after two update() calls (the text: 'keeps a deep copy of model in "
                f"self.module'; a deep copy lives where the model does)")
        r = student.call("ema_on_meta", decay=0.9, average_buffers=average_buffers)
        if "error" in r:
            fail(f"{what}: raised {r['error']}")
        for name, dev in r["devices"].items():
            expect(dev == "meta", f"{what}: self.module's '{name}' is on {dev}, not on the model's device")


def test_decay_direction(student, gen):
    """EMA: decay is the weight of the OLD average: ema = decay * ema + (1 - decay) * live"""
    states = random_states(gen, 2)
    r = student.call("ema_states", states=states, decay=0.75)
    name = "0.weight"
    want = 0.75 * states[1][name] + 0.25 * states[2][name]
    if torch.allclose(r["history"][1][name], 0.25 * states[1][name] + 0.75 * states[2][name], atol=1e-10):
        fail("EMA(model, decay=0.75) after two updates: the weights are 0.25 * old + 0.75 * new; decay is the "
             "weight of the running average (0.75 * old + 0.25 * new)")
    expect_close(r["history"][1][name], want, f"EMA(model, decay=0.75) after two updates, parameter '{name}'",
                 atol=1e-10, rtol=1e-10)


def test_averaged_parameters_do_not_require_grad(student, gen):
    """EMA: the averaged parameters do not require gradients (after construction and after updates); the live
    model's flags stay as they were (a frozen live parameter stays frozen)"""
    states = random_states(gen, 2)
    frozen = ["0.bias"]  # a frozen layer of the live model: EMA must not turn it back on
    r = student.call("ema_requires_grad", states=states, decay=0.9, frozen=frozen)
    for when, label in (("init", "after EMA(model, 0.9)"), ("updated", "after two update() calls")):
        flags = r[when]
        expect(bool(flags), f"EMA.module has no parameters {label}")
        on = sorted(n for n, f in flags.items() if f is not False)
        expect(not on, f"{label}, these averaged parameters of EMA.module still require gradients: {on} "
                       f"(call requires_grad_(False) on the copy's parameters)")
    off = sorted(n for n, f in r["live"].items() if f is not True and n not in frozen)
    expect(not off, f"the live model's parameters {off} no longer require gradients: EMA must not change the "
                    f"model it averages")
    thawed = sorted(n for n in frozen if r["live"].get(n) is not False)
    expect(not thawed, f"EMA(model, 0.9) on a model whose {thawed} had requires_grad=False: afterwards the live "
                       f"parameters {thawed} require gradients again (expected False, got True); EMA must never "
                       f"modify the model it averages, frozen layers included")
    want = reference_history(states, 0.9, False)[-1]
    for name in (n for n in want if is_param(n)):
        expect_close(r["ema"].get(name), want[name], f"EMA(model, 0.9) after two update() calls, parameter '{name}'",
                     atol=1e-10, rtol=1e-10)


def test_no_shared_storage(student, gen):
    """EMA keeps its own copy: no memory shared with the live model, and later live changes do not move it"""
    states = random_states(gen, 1)
    r = student.call("ema_storage", states=states, decay=0.9)
    expect(not r["shared_after_init"],
           f"EMA(model, 0.9): right after construction, ema.module shares memory with the live model for "
           f"{r['shared_after_init'][:4]}; make a deep copy (copy.deepcopy) so the average is independent")
    expect(not r["shared_after_update"],
           f"EMA(model, 0.9): after update(), ema.module shares memory with the live model for "
           f"{r['shared_after_update'][:4]} (assigning .data or the live tensor itself aliases it; copy values "
           f"into the EMA's own tensors instead)")
    want = reference_history(states, 0.9, False)[0]
    for name in (n for n in want if is_param(n)):
        expect_close(r["before"].get(name), want[name], f"EMA(model, 0.9) after update(), parameter '{name}'",
                     atol=1e-10, rtol=1e-10)
    for name, before in r["before"].items():
        expect_close(r["after_live_change"][name], before,
                     f"EMA(model, 0.9): '{name}' of ema.module changed when only the LIVE model was modified "
                     f"after update()", atol=0, rtol=0)


@pytest.mark.parametrize("average_buffers", [False, True])
def test_training_loop_no_graph(student, gen, average_buffers):
    """EMA inside a real SGD loop (BatchNorm in train mode): matches AveragedModel and builds no autograd graph"""
    init = random_states(gen, 0)[0]
    xs = [torch.randn(8, 4, generator=gen, dtype=f64) for _ in range(4)]
    ys = [torch.randint(0, 3, (8,), generator=gen) for _ in range(4)]
    lr, decay = 0.1, 0.8
    r = student.call("ema_training", init=init, xs=xs, ys=ys, lr=lr, decay=decay, average_buffers=average_buffers)
    what = f"EMA(model, decay={decay}, average_buffers={average_buffers}) updated after each of 4 SGD steps"
    expect(not r["graph"],
           f"{what}: tensors held by the EMA have a grad_fn ({', '.join(r['graph'][:4])}): the update ran under "
           f"autograd, so every step chains onto the previous graph; wrap it in torch.no_grad()")
    model = ema_model()
    model.load_state_dict(init)
    model.train()
    avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=average_buffers)
    for x, y in zip(xs, ys):
        model.zero_grad()
        F.cross_entropy(model(x), y).backward()
        with torch.no_grad():
            for p in model.parameters():
                p.sub_(lr * p.grad)
        avg.update_parameters(model)
    live = {k: v.detach() for k, v in model.state_dict().items()}
    for name, t in live.items():
        expect_close(r["live"][name], t, f"{what}: the live model's '{name}' (update() must not change the live "
                                         f"model)", atol=1e-10, rtol=1e-10)
    compare_state(r["ema"], avg.module.state_dict(), live, what, average_buffers=average_buffers, tol=1e-9)


def test_live_model_untouched(student, gen):
    """EMA.update never modifies the live model"""
    states = random_states(gen, 3)
    r = student.call("ema_states", states=states, decay=0.5, average_buffers=True)
    for name, t in states[-1].items():
        expect_equal(r["live"][name], t, f"EMA(model, 0.5).update(model): the live model's '{name}' afterwards "
                                         f"(update() must only read the live model)")


def test_decay_range(student, gen):
    """EMA(model, decay) accepts every decay in [0, 1] (both ends included, as floats or the ints 0 and 1) and raises
    ValueError outside it (nan included)"""
    u = torch.rand(5, generator=gen, dtype=f64).tolist()  # both ends, and random decays inside and outside
    decays = [0.0, 1.0, 0, 1, u[0], -0.5 * u[1] - 1e-3, 1 + 1e-3 + u[2], 1.5 + u[3], 0.999 * u[4], float("nan")]
    decays = [decays[i] for i in torch.randperm(len(decays), generator=gen).tolist()]
    res = student.call("ema_decay_errors", decays=decays)
    for d, r in zip(decays, res):
        if 0.0 <= d <= 1.0:
            expect(not r["raised"], f"EMA(model, decay={d!r}) raised {r['type']}: {r['message'][:120]}; "
                                    f"every decay in [0, 1] is valid (compare the value, not its type)")
        else:
            expect(r["raised"] and "ValueError" in r["mro"],
                   f"EMA(model, decay={d}) must raise ValueError (decay outside [0, 1]), "
                   + (f"raised {r['type']}" if r["raised"] else "raised nothing"))


def test_tied_parameters(student, gen):
    """EMA of a model with a tied weight (one Parameter in two modules) averages it once per update, as
    AveragedModel does (model.parameters() lists it once; state_dict() twice)"""
    model = ema_tied_model()
    template = model.state_dict()
    states = []
    for _ in range(4):
        w = torch.randn(4, 4, generator=gen, dtype=f64)
        s = {k: torch.randn(t.shape, generator=gen, dtype=f64) for k, t in template.items()}
        s["0.weight"], s["2.weight"] = w, w
        states.append(s)
    model.load_state_dict(states[0])
    avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.6))
    want = []
    for s in states[1:]:
        model.load_state_dict(s)
        avg.update_parameters(model)
        want.append({n: p.detach().clone() for n, p in avg.module.named_parameters()})
    r = student.call("ema_tied_states", states=states, decay=0.6)
    for step, (got, w) in enumerate(zip(r["history"], want), start=1):
        for name in w:
            expect_close(got.get(name), w[name], f"EMA(model, decay=0.6) after update {step} of 3, on a model whose "
                         f"layers 0 and 2 share one weight: parameter '{name}' (walk model.parameters(), which "
                         f"lists a shared parameter once)", atol=1e-10, rtol=1e-10)


@pytest.mark.parametrize("average_buffers", [False, True])
def test_buffers_of_every_dtype(student, gen, average_buffers):
    """EMA: int32 and uint8 buffers are integer buffers, copied (with average_buffers=True too: only floating-point
    buffers are averaged); float32, float16 and bfloat16 buffers are copied or averaged like the others, and a
    float16 parameter is averaged without overflow (its values swing between about +33000 and -33000)"""
    states = random_states(gen, 3)
    floats = {"scale32": torch.float32, "scale16": torch.float16, "scale_bf16": torch.bfloat16,
              "gain16": torch.float16}

    def value(k, i):
        if k in ("scale16", "gain16"):
            # float16 holds +-33000 but not their difference (66000 > 65504): an update written as
            # ema - (1 - d) * (ema - live) in float16 is inf, where d * ema + (1 - d) * live and lerp are finite
            return ((-1) ** i * (33000 + 1000 * torch.rand(3, generator=gen))).to(torch.float16)
        # each step's float values lie 2 above the last one's, so averaging and copying differ by at least 1
        return (torch.rand(3, generator=gen) + 0.5 + 2 * i).to(floats[k])

    extras = [{"steps32": torch.randint(0, 1000, (2,), generator=gen, dtype=torch.int32),
               "seen": torch.randint(0, 256, (3,), generator=gen).to(torch.uint8),
               **{k: value(k, i) for k in floats}}
              for i in range(len(states))]
    d = 0.5
    ema = {}
    for step in range(1, len(states)):
        for k in floats:
            live = extras[step][k].double()
            averaged = average_buffers or k == "gain16"  # a parameter: averaged after the first update
            ema[k] = live if k not in ema or not averaged else ema[k].lerp(live, 1 - d)  # the text's formula
        r_want = {**{k: extras[step][k] for k in ("steps32", "seen")},
                  **{k: ema[k].to(dt) for k, dt in floats.items()}}
        if step == 1:
            r = student.call("ema_counter_buffers", states=states, extras=extras, decay=d,
                             average_buffers=average_buffers)
        got = r["history"][step - 1]
        what = (f"EMA(model, decay={d}, average_buffers={average_buffers}) after update {step} of 3, on a model with "
                f"int32, uint8, float32, float16 and bfloat16 buffers and a float16 parameter 'gain16'")
        for name, w in r_want.items():
            if name not in got:
                fail(f"{what}: ema.module has no {'parameter' if name == 'gain16' else 'buffer'} '{name}'")
            why = ("a float16 parameter, averaged: decay * ema + (1 - decay) * live, here between values near "
                   "+-33000 whose difference overflows float16 (use lerp_ or that formula, not ema - (1 - decay) * "
                   "(ema - live))" if name == "gain16" and step > 1 else
                   "a float16 parameter: the first update copies" if name == "gain16" else
                   f"a {w.dtype} buffer, averaged" if name in floats and average_buffers else
                   f"a {w.dtype} buffer, copied" if name in floats else "not floating point: copied, never averaged")
            kind = "parameter" if name == "gain16" else "buffer"
            expect(got[name].dtype == w.dtype, f"{what}: {kind} '{name}' is {got[name].dtype}, the live one "
                                               f"{w.dtype}")
            tol = 3e-2 if w.dtype in (torch.float16, torch.bfloat16) else 1e-6
            expect_close(got[name].double(), w.double(), f"{what}, {kind} '{name}' ({why})", atol=tol, rtol=tol)


@pytest.mark.parametrize("late", [0, 2], ids=["built-together", "built-after-2-updates"])
def test_two_instances_independent(student, gen, late):
    """EMA: two EMA objects of two models, alive at once and updated in turn (the second built at the start or
    after the first's second update), each follow their own AveragedModel: they share no state"""
    states_a, states_b = random_states(gen, 4), random_states(gen, 3)
    decay_a, decay_b = 0.6, 0.3
    ab_a, ab_b = late == 0, late != 0
    want_a = reference_history(states_a, decay_a, ab_a)
    want_b = reference_history(states_b, decay_b, ab_b)
    r = student.call("ema_two_instances", states_a=states_a, states_b=states_b, decay_a=decay_a, decay_b=decay_b,
                     average_buffers_a=ab_a, average_buffers_b=ab_b, late=late)
    when = "built together with A" if late == 0 else f"built after A's update {late}"
    for key, want, states, decay, ab, label in (
            ("a", want_a, states_a, decay_a, ab_a, "A"), ("b", want_b, states_b, decay_b, ab_b, "B")):
        hist = r.get(key) if isinstance(r, dict) else None
        if not isinstance(hist, list) or len(hist) != len(want):
            fail(f"EMA: two instances A and B (B {when}): expected {len(want)} states of {label} back, got "
                 f"{str(hist)[:80]}")
        for step, (got, w, live) in enumerate(zip(hist, want, states[1:]), start=1):
            compare_state(got, w, live, f"EMA {label} = EMA(model_{label.lower()}, decay={decay}, average_buffers="
                                        f"{ab}) after its update {step}, while another EMA of another model of the "
                                        f"same architecture (B {when}) is updated in turn (state kept on the class "
                                        f"or in a shared default argument mixes the two)", average_buffers=ab)


def ema_layout_model():
    """Same as probes.ema_layout_model: Conv2d / BatchNorm2d / Linear in float64, channels_last, the Linear
    weight stored transposed (no parameter of the 2-d or 4-d kind is contiguous)."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 2)).double()
    model = model.to(memory_format=torch.channels_last)
    model[4].weight = nn.Parameter(model[4].weight.detach().t().contiguous().t())
    return model


def test_any_memory_layout(student, gen):
    """EMA of a model whose parameters are not contiguous (a channels_last convolution, a weight stored
    transposed) follows AveragedModel: each parameter is averaged where it is, in any layout"""
    k, decay = 3, 0.7
    states = random_states_like(ema_layout_model().state_dict(), gen, k)
    want = reference_history(states, decay, True, make_model=ema_layout_model)
    r = student.call("ema_layout_states", states=states, decay=decay, average_buffers=True)
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"EMA(model, decay={decay}, average_buffers=True) after update {step} of {k}, "
                                    f"on a model moved to channels_last (Conv2d weight of shape (3, 2, 3, 3) stored "
                                    f"channels-last) with a Linear weight stored transposed ('every later call sets "
                                    f"each parameter': flatten with reshape, not view, or update each tensor as it "
                                    f"is; torch.nn.utils.parameters_to_vector views and raises here)",
                      average_buffers=True)


def test_written_by_hand(student, gen):
    """EMA writes its update itself: it neither builds an AveragedModel nor calls the EMA functions of
    torch.optim.swa_utils (get_ema_multi_avg_fn, get_ema_avg_fn), under any name"""
    states = random_states(gen, 3)
    r = student.call("ema_states", states=states, decay=0.6, average_buffers=True, watch_library=True)
    calls = r.get("library_calls") or []
    expect(not calls, "EMA(model, decay=0.6, average_buffers=True), built and updated 3 times, ran PyTorch's own "
                      f"EMA code from torch/optim/swa_utils.py ({', '.join(calls[:5])}); the text: 'The point is to "
                      "write the update yourself (do not use AveragedModel or the functions get_ema_multi_avg_fn "
                      "and get_ema_avg_fn return)'")
    want = reference_history(states, 0.6, True)
    for step, (got, w, live) in enumerate(zip(r["history"], want, states[1:]), start=1):
        compare_state(got, w, live, f"EMA(model, decay=0.6, average_buffers=True) after update {step} of 3",
                      average_buffers=True)
