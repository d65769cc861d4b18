"""Hidden checks for GradMonitor (15-09, judge side)."""
import math
import runpy
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
pytestmark = pytest.mark.task("monitor")


def fresh_state(seed, root_param):
    torch.manual_seed(seed)
    return PROBES["MonitorNet"](root_param).state_dict()


def judge_script(state, root_param, actions, frozen=(), twin=False):
    """What each read action of the script should give, from autograd.grad on the judge's own copy."""
    net = PROBES["monitor_net"](state, root_param, frozen, twin=twin)
    owners = []
    for name, m in net.named_modules():
        own = [p for p in m.parameters(recurse=False) if p.requires_grad]
        if own:
            owners.append((name, own))
    trainable = list({id(p): p for _, ps in owners for p in ps}.values())
    sums = {}      # monitor -> {id(p): summed gradient}
    active = {}
    accumulated = {}  # what .grad holds: backward() accumulates, nobody zeroes it
    out = []

    def norms(m):
        res = {}
        for name, ps in owners:
            total = torch.zeros((), dtype=torch.float64)
            for p in ps:
                if id(p) in sums[m]:
                    total = total + sums[m][id(p)].double().pow(2).sum()
            res[name] = float(total.sqrt())
        return res

    for act in actions:
        kind = act[0]
        if kind == "new":
            sums[act[1]], active[act[1]] = {}, True
        elif kind in ("backward", "autograd_grad"):
            grads = torch.autograd.grad(net.loss(act[1], act[2]), trainable, allow_unused=True)
            for p, g in zip(trainable, grads):
                if g is not None and kind == "backward":  # torch.autograd.grad leaves .grad alone
                    accumulated[id(p)] = g if id(p) not in accumulated else accumulated[id(p)] + g
            for m in sums:
                if active[m]:
                    for p, g in zip(trainable, grads):
                        if g is not None:
                            sums[m][id(p)] = g if id(p) not in sums[m] else sums[m][id(p)] + g
        elif kind == "inject":  # gradients delivered to the named parameters themselves
            params = dict(net.named_parameters())
            for n, g in act[1].items():
                p = params[n]
                accumulated[id(p)] = g if id(p) not in accumulated else accumulated[id(p)] + g
                for m in sums:
                    if active[m]:
                        sums[m][id(p)] = g if id(p) not in sums[m] else sums[m][id(p)] + g
        elif kind == "zero_grad":
            accumulated = {}
        elif kind == "clear":
            sums[act[1]] = {}
        elif kind == "remove":
            active[act[1]] = False
        elif kind == "released":
            out.append({"released": True})
        elif kind == "norms":
            out.append(norms(act[1]))
        elif kind == "grads":
            out.append({n: accumulated.get(id(p)) for n, p in net.named_parameters()})
        elif kind == "diagnose":
            out.append(judge_diagnose(norms(act[1]), act[2], act[3]))
    return out


def judge_diagnose(norms, low, high):
    items = list(norms.items())
    for name, n in items:
        if not math.isfinite(n):
            return ["nonfinite", name]
    big = [(name, n) for name, n in items if n > high]
    if big:
        top = max(n for _, n in big)
        return ["exploding", next(name for name, n in big if n == top)]
    small = [(name, n) for name, n in items if n < low]
    if small:
        bottom = min(n for _, n in small)
        return ["vanishing", next(name for name, n in small if n == bottom)]
    return None


def batch(gen, n=6, scale=1.0):
    return torch.randn(n, 5, generator=gen) * scale


def expect_norms(got, want, what, keys_only=False, values_only=False):
    expect(isinstance(got["norms"], dict), f"{what}: norms() returned {got['norms']!r}, expected a dict")
    if not values_only:
        expect(sorted(got["norms"]) == sorted(want),
               f"{what}: norms() reported modules {sorted(got['norms'])}, expected {sorted(want)} (the modules that "
               f"directly hold a parameter requiring a gradient)")
    if keys_only:
        return
    for name, w in want.items():
        if name not in got["norms"]:
            continue  # which modules are reported is its own check
        g = got["norms"][name]
        expect(got["types"].get(name) == "float", f"{what}: norms()[{name!r}] is a {got['types'].get(name)}, "
                                                  f"expected a float")
        ok = (math.isnan(w) and math.isnan(g)) or g == w or (math.isfinite(w) and abs(g - w) <= 1e-6 + 1e-5 * abs(w))
        expect(ok, f"{what}: norms()[{name!r}] is {g:.6g}, expected {w:.6g}")


def run(student, state, root_param, actions, frozen=(), half=False, twin=False, device=None):
    return (student.call("monitor_script", state=state, root_param=root_param, actions=actions, frozen=list(frozen),
                         half=half, twin=twin, **({"device": device} if device else {})),
            judge_script(state, root_param, actions, frozen, twin))


def draw_frozen(gen, names=("body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias", "aux.bias",
                              "partial.bias")):
    """Parameters frozen on top of the model's own, drawn per student (each with probability 1/2): which
    modules hold a trainable parameter, and so what norms() reports, differs from student to student."""
    return [n for n, b in zip(names, torch.randint(0, 2, (len(names),), generator=gen).tolist()) if b]


@pytest.mark.parametrize("root_param", [False, True], ids=["plain", "root_parameter"])
def test_reported_modules(student, gen, root_param):
    """norms() reports exactly the modules that directly hold a parameter requiring a gradient"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), root_param)
    frozen = draw_frozen(gen)
    got, want = run(student, state, root_param, [["new", 0], ["backward", batch(gen), [1.0, 1.0]], ["norms", 0]],
                    frozen)
    expect_norms(got[0], want[0], f"after one backward (with {frozen or 'nothing'} frozen as well)", keys_only=True)


@pytest.mark.parametrize("root_param", [False, True], ids=["plain", "root_parameter"])
def test_norms_after_one_backward(student, gen, root_param):
    """norms() gives each module's L2 gradient norm over its own trainable parameters after one backward"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), root_param)
    got, want = run(student, state, root_param, [["new", 0], ["backward", batch(gen), [1.0, 0.5]], ["norms", 0]])
    expect_norms(got[0], want[0], "after one backward (the module 'aux' holds its weight under a second name too, "
                                  "aux.tied = aux.weight: one parameter, which counts once in aux's norm, as "
                                  "parameters(recurse=False) lists it)", values_only=True)


# float64: squares taken in float32 (a .float() cast "against float16 overflow", or a default-dtype accumulator such
# as torch.zeros(()) added to in place) overflow at gradients of 1e20, whose float64 norm is finite.
# float32: an ordinary model's exploding gradients of 1e20 are float32 numbers, and so is their L2 norm (about 1e21),
# but their squares (1e40) are not: squaring (or torch.linalg.vector_norm) in the gradient's own dtype gives inf, and
# diagnose then says "nonfinite" instead of "exploding".
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_norms_do_not_overflow(student, gen, dtype):
    """norms() of float16 gradients of a few hundred, and of float32 and float64 gradients of about 1e20, is their
    finite L2 norm, not inf from squaring in the gradient's dtype or a narrower one"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    names = {"body.0.weight": (7, 5), "aux.weight": (2, 5), "aux.bias": (2,)}
    if dtype == "float16":
        grads = {n: ((torch.rand(s, generator=gen) * 200 + 250) * torch.sign(torch.randn(s, generator=gen))).half()
                 for n, s in names.items()}
        what, high = "a float16 model after gradients of 250 to 450 in size (their squares overflow float16)", 1e9
    elif dtype == "float32":
        grads = {n: (torch.rand(s, generator=gen) + 0.5) * 1e20 * torch.sign(torch.randn(s, generator=gen))
                 for n, s in names.items()}
        what, high = ("a float32 model after gradients of 5e19 to 1.5e20 in size (the norms, about 1e21, are float32 "
                      "numbers; the squares, about 1e40, overflow float32)"), 1e30
    else:
        grads = {n: (torch.rand(s, generator=gen, dtype=torch.float64) + 0.5) * 1e20
                 * torch.sign(torch.randn(s, generator=gen, dtype=torch.float64)) for n, s in names.items()}
        what, high = ("a float64 model (model.double()) after gradients of 5e19 to 1.5e20 in size (their squares "
                      "overflow float32, not float64)"), 1e30
    got, want = run(student, state, False, [["new", 0], ["inject", grads], ["norms", 0],
                                            ["diagnose", 0, 0.0, high]],
                    half={"float16": True, "float32": False, "float64": "double"}[dtype])
    expect(len(got) == 2, f"{what}: the probe sent back {len(got)} answers for 2 reads")
    n = got[0]["norms"] if isinstance(got[0]["norms"], dict) else {}
    for name in ("body.0", "aux"):
        g, w = n.get(name), want[0][name]
        expect(isinstance(g, float) and math.isfinite(g) and abs(g - w) <= 2e-3 * w,
               f"{what}: norms()[{name!r}] is {g!r}, expected {w:.6g} (the clause 'The value is the L2 norm ... of "
               f"the gradient received': square and sum in float64"
               + ("; torch.linalg.vector_norm in float32 squares in float32 too)" if dtype == "float32" else ")"))
    expect(got[1]["diagnose"] is None, f"{what}: diagnose(0, {high:g}) is {got[1]['diagnose']!r}, expected None "
                                       f"(every norm is finite and in range)")


# A parameter that received no gradient counts zero: a zero filler made without device= (torch.zeros(p.numel())) is
# on the CPU, and next to the CUDA gradients of the module's other parameters (torch.cat, torch.stack, +) raises on a
# GPU. (A CPU 0-d accumulator such as torch.zeros(()) mixes with CUDA tensors and is right there.)
@pytest.mark.gpu
def test_norms_of_a_model_on_the_gpu(student, gen):
    """norms() and diagnose() of a model on the GPU whose modules hold a parameter that received a gradient next to
    one that received none (it counts zero)"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    names = {"body.0.weight": (7, 5), "aux.bias": (2,), "proj.weight": (5, 5)}
    grads = {n: torch.randn(s, generator=gen) * 3 for n, s in names.items()}
    got, want = run(student, state, False, [["new", 0], ["inject", grads], ["norms", 0], ["diagnose", 0, 0.5, 1e9]],
                    device="cuda")
    what = ("GradMonitor(model) of a model on the GPU after gradients delivered to body.0.weight, aux.bias and "
            "proj.weight only (body.0.bias, aux.weight and body.2's parameters received none: they count zero)")
    expect(len(got) == 2, f"{what}: the probe sent back {len(got)} answers for 2 reads")
    expect_norms(got[0], want[0], what)
    expect(got[1]["diagnose"] == want[1], f"{what}: diagnose(0.5, 1e9) is {got[1]['diagnose']!r}, expected "
                                          f"{want[1]!r}")


def test_shared_parameter_counts_once_for_each_module(student, gen):
    """A parameter held by two modules (tied weights) counts, once, for each of them"""
    state = fresh_state(3, False)
    got, want = run(student, state, False, [["new", 0], ["backward", batch(gen), [2.0, 0.0]], ["norms", 0]])
    assert want[0]["proj"] == want[0]["head"]
    n = got[0]["norms"] if isinstance(got[0]["norms"], dict) else {}
    for name in ("proj", "head"):
        expect(name in n and abs(n[name] - want[0][name]) <= 1e-6 + 1e-5 * want[0][name],
               f"norms()[{name!r}] is {n.get(name)!r}, expected {want[0][name]:.6g}: 'proj' and 'head' hold one "
               f"shared weight, whose gradient (summed over both uses) counts once for each")


# a walk of one's own over named_children() (instead of named_modules(), which lists each module object once)
# reaches a module registered under two parents twice and reports it under both names
def test_module_registered_twice_is_reported_once(student, gen):
    """norms() reports a module registered under two parents once, under its named_modules() name"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    got, want = run(student, state, False, [["new", 0], ["backward", batch(gen), [1.0, 1.0]], ["norms", 0]],
                    twin=True)
    assert "aux" in want[0] and "twin.0" not in want[0]
    expect_norms(got[0], want[0], "after one backward, on a model whose 'aux' Linear is also registered as 'twin.0' "
                                  "(named_modules() lists that module once, as 'aux')")


def test_clear_and_independent_monitors(student, gen):
    """clear() forgets what one monitor recorded; without it gradients add up; two monitors keep separate records"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    actions = [["new", 0], ["new", 1], ["backward", batch(gen), [1.0, 1.0]], ["clear", 0],
               ["backward", batch(gen), [0.3, 2.0]], ["norms", 0], ["norms", 1],
               ["backward", batch(gen), [1.5, 0.1]], ["norms", 0], ["grads"]]
    got, want = run(student, state, False, actions)
    expect_norms(got[0], want[0], "monitor A after backward, A.clear(), backward (no zero_grad in between)",
                 values_only=True)
    expect_norms(got[1], want[1], "monitor B (never cleared) after two backward calls", values_only=True)
    expect_norms(got[2], want[2], "monitor A after a third backward (two since its clear())", values_only=True)
    for name, w in want[3].items():
        g = got[3].get(name)
        expect((g is None and w is None) or (g is not None and w is not None and torch.allclose(g, w, atol=1e-6, rtol=1e-5)),
               f"after clear() and three backward calls, .grad of '{name}' is not the sum of the three gradients "
               f"(clear() must not touch .grad)")


# a monitor that reads .grad (its growth since the monitor was created or cleared) instead of what the hooks
# receive: a zero_grad() between two backwards loses the first, and torch.autograd.grad sets no .grad at all
def test_norms_count_what_the_hooks_receive(student, gen):
    """norms() counts the gradients the hooks receive, not .grad: a backward before zero_grad() still counts, and so
    does torch.autograd.grad (which fills no .grad)"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    actions = [["new", 0], ["backward", batch(gen), [1.0, 1.0]], ["zero_grad"], ["backward", batch(gen), [0.5, 2.0]],
               ["norms", 0], ["new", 1], ["autograd_grad", batch(gen), [1.5, 0.3]], ["norms", 1], ["norms", 0]]
    got, want = run(student, state, False, actions)
    expect_norms(got[0], want[0], "after backward, model.zero_grad() (.grad set to None, as optimizers do), backward: "
                                  "the gradients received since the monitor was created are both backwards' "
                                  "(.grad holds only the second)", values_only=True)
    expect_norms(got[1], want[1], "a new monitor after one torch.autograd.grad(loss, parameters) call: its hooks "
                                  "received that gradient although .grad was not touched", values_only=True)
    expect_norms(got[2], want[2], "the first monitor after backward, zero_grad(), backward and then "
                                  "torch.autograd.grad (three gradients received)", values_only=True)


# sorted(big, key=norm)[-1] or a scan with >= picks the last of tied largest norms; two modules holding one
# tied weight always report the same norm
def test_diagnose_exploding_tie(student, gen):
    """diagnose breaks a tie for the largest norm by named_modules() order too ('proj' and 'head' hold one tied
    weight and report one norm)"""
    root = bool(torch.randint(0, 2, (1,), generator=gen))  # with or without a parameter at the root, first
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), root)
    base = [["new", 0], ["inject", injected_grads(gen, state, root, scale={"proj": 1e3})]]
    norms = judge_script(state, root, base + [["norms", 0]])[0]
    assert norms["proj"] == norms["head"] == max(norms.values())
    second = max(v for k, v in norms.items() if k not in ("proj", "head"))
    diag = [["diagnose", 0, 0.0, (second + norms["proj"]) / 2], ["diagnose", 0, 0.0, second / 2]]
    got, want = run(student, state, root, base + diag)
    assert all(w == ["exploding", "proj"] for w in want)
    expect_diagnoses(got, want, norms, [(a[2], a[3]) for a in diag])


def test_remove(student, gen):
    """remove() detaches the monitor's hooks (another monitor on the same model keeps recording, and nothing keeps
    the removed one alive)"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), True)
    actions = [["new", 0], ["new", 1], ["backward", batch(gen), [1.0, 1.0]], ["remove", 0],
               ["backward", batch(gen), [2.0, 0.5]], ["norms", 0], ["norms", 1], ["released", 0]]
    got, want = run(student, state, True, actions)
    expect(len(got) == len(want), f"the probe sent back {len(got)} answers for {len(want)} read actions")
    expect_norms(got[0], want[0], "monitor A after A.remove() and one more backward (it must not record it)",
                 values_only=True)
    expect_norms(got[1], want[1], "monitor B (not removed) on the same model", values_only=True)
    expect(got[2].get("released") in (True, None),
           "monitor A, after A.remove() and once the caller drops it, is still alive (gc.collect() does not free "
           "it): something the model holds, a hook left registered on a parameter, still refers to it. The text: "
           "\"remove() removes every hook\"; remove each handle that register_hook returned (handle.remove()), "
           "rather than switching recording off")


def diagnose_actions(norms, gen):
    """Thresholds placed between the judge's norms, so that each answer is clear-cut (in an order drawn
    per student)."""
    vals = sorted(v for v in norms.values())
    mid_hi = (vals[-1] + vals[-2]) / 2
    mid_lo = (vals[0] + vals[1]) / 2
    acts = [["diagnose", 0, vals[0] / 2, vals[-1] * 2], ["diagnose", 0, mid_lo, vals[-1] * 2],
            ["diagnose", 0, vals[0] / 2, mid_hi], ["diagnose", 0, mid_lo, mid_hi],
            ["diagnose", 0, vals[0] / 2, vals[0] / 4]]
    return [acts[k] for k in torch.randperm(len(acts), generator=gen).tolist()]


def expect_diagnoses(got, want, norms, thresholds):
    shown = ", ".join(f"{k!r}: {v:.4g}" for k, v in norms.items())
    expect(len(got) == len(want), f"the probe sent back {len(got)} diagnose() answers for {len(want)} calls")
    for g, w, (low, high) in zip(got, want, thresholds):
        expect(g["diagnose"] == w and g["type"] == ("NoneType" if w is None else "tuple"),
               f"diagnose(low={low:.4g}, high={high:.4g}) returned {g['diagnose']!r} ({g['type']}), expected "
               f"{tuple(w) if w else None} for norms {{{shown}}}")


@pytest.mark.parametrize("root_param", [False, True], ids=["plain", "root_parameter"])
def test_diagnose_thresholds(student, gen, root_param):
    """diagnose: None when all norms are in range, else the largest above high, else the smallest below low"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), root_param)
    frozen = draw_frozen(gen)
    base = [["new", 0], ["backward", batch(gen), [1.0, 1.0]]]
    norms = judge_script(state, root_param, base + [["norms", 0]], frozen)[0]
    diag = diagnose_actions(norms, gen)
    got, want = run(student, state, root_param, base + diag, frozen)
    expect_diagnoses(got, want, norms, [(a[2], a[3]) for a in diag])


@pytest.mark.task("monitor", weight=0.1)  # its right answer is a constant (None): worth little
def test_nothing_to_monitor(student, gen):
    """A model with no parameter requiring a gradient: norms() is {} and diagnose() is None (no norm is out of range)"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    frozen = [n for n in state if not n.endswith(("running_mean", "running_var", "num_batches_tracked"))]
    got = student.call("monitor_script", state=state, root_param=False, frozen=frozen, half=False,
                       actions=[["new", 0], ["norms", 0], ["diagnose", 0, 1e-3, 1e3], ["remove", 0]])
    what = "GradMonitor(model) on a model whose every parameter is frozen"
    expect(got[0]["norms"] == {}, f"{what}: norms() returned {got[0]['norms']!r}, expected {{}} (no module holds a "
                                  f"parameter requiring a gradient)")
    expect(got[1]["diagnose"] is None, f"{what}: diagnose(1e-3, 1e3) returned {got[1]['diagnose']!r}, expected None: "
                                       f"every norm (there is none) is finite and within [low, high]")


@pytest.mark.task("monitor", weight=0.1)  # its right answer is a constant (None): worth little
def test_diagnose_range_includes_its_ends(student, gen):
    """diagnose: a norm equal to low or to high is within [low, high], so the answer is None"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    res = student.call("monitor_bounds", state=state, root_param=False, x=batch(gen), k=[1.0, 1.0])
    expect("error" not in res, f"after one backward: {res.get('error')}")
    expect(res["diagnose"] is None,
           f"diagnose(low={res['low']!r}, high={res['high']!r}), the smallest and largest of your own norms(), "
           f"returned {res['diagnose']!r}, expected None: the range [low, high] includes its ends")


def test_diagnose_ties(student, gen):
    """diagnose breaks ties by named_modules() order (several modules with zero gradient)"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    # proj (tied to head) may be frozen too: the first module with a zero gradient changes; partial never is
    frozen = draw_frozen(gen, ("proj.weight", "body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias"))
    base = [["new", 0], ["backward", batch(gen), [0.0, 1.0]]]  # only 'aux' gets a non-zero gradient
    norms = judge_script(state, False, base + [["norms", 0]], frozen)[0]
    diag = [["diagnose", 0, 1e-9, 1e9], ["diagnose", 0, 1e-9, 1e-12]]
    diag = diag[::-1] if bool(torch.randint(0, 2, (1,), generator=gen)) else diag
    got, want = run(student, state, False, base + diag, frozen)
    assert any(w and w[0] == "vanishing" for w in want) and any(w and w[0] == "exploding" for w in want)
    expect_diagnoses(got, want, norms, [(a[2], a[3]) for a in diag])


@pytest.mark.parametrize("k", [[float("inf"), 1.0], [float("nan"), 1.0]], ids=["inf", "nan"])
def test_diagnose_nonfinite(student, gen, k):
    """diagnose reports 'nonfinite' (first such module) before exploding or vanishing ones"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    # which module is the first non-finite one depends on what is frozen (partial always trains)
    frozen = draw_frozen(gen, ("proj.weight", "body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias"))
    base = [["new", 0], ["backward", batch(gen), k]]
    norms = judge_script(state, False, base + [["norms", 0]], frozen)[0]
    diag = [["diagnose", 0, 1e-9, 1e3], ["diagnose", 0, 1e3, 1e6]]
    got, want = run(student, state, False, base + diag, frozen)
    assert want[0][0] == "nonfinite"
    expect_diagnoses(got, want, norms, [(a[2], a[3]) for a in diag])


def injected_grads(gen, state, root_param, scale=None, fill_inf=None):
    """Chosen gradients for every trainable parameter (delivered by backward on the parameters themselves,
    so the hooks fire as usual): random, times scale[module] for the parameters of the listed modules; all
    of ``fill_inf``'s parameters infinite."""
    net = PROBES["monitor_net"](state, root_param)
    grads = {}
    for name, p in net.named_parameters():
        if p.requires_grad:
            module = name.rpartition(".")[0]
            g = torch.randn(p.shape, generator=gen) * (0.5 + torch.rand((), generator=gen))
            grads[name] = g * (scale or {}).get(module, 1.0)
            if module == fill_inf:
                grads[name] = torch.full(p.shape, float("inf"))
    return grads


def lone_modules(state, root_param):
    """Modules whose trainable parameters no other module holds, in named_modules() order after the first
    reporting module (the tied proj/head always report equal norms)."""
    net = PROBES["monitor_net"](state, root_param)
    owners = [(n, [p for p in m.parameters(recurse=False) if p.requires_grad]) for n, m in net.named_modules()]
    owners = [(n, ps) for n, ps in owners if ps]
    count = {}
    for _, ps in owners:
        for p in ps:
            count[id(p)] = count.get(id(p), 0) + 1
    return [n for n, ps in owners[1:] if all(count[id(p)] == 1 for p in ps)]


@pytest.mark.parametrize("root_param", [False, True], ids=["plain", "root_parameter"])
def test_diagnose_vanishing_picks_smallest(student, gen, root_param):
    """diagnose: with several norms below low, 'vanishing' names the smallest one, not the first"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), root_param)
    names = lone_modules(state, root_param)
    target = names[int(torch.randint(0, len(names), (), generator=gen))]
    base = [["new", 0], ["inject", injected_grads(gen, state, root_param, scale={target: 1e-3})]]
    norms = judge_script(state, root_param, base + [["norms", 0]])[0]
    top = max(norms.values())
    diag = [["diagnose", 0, 2 * top, 4 * top]]  # every norm is below low; none above high
    got, want = run(student, state, root_param, base + diag)
    assert want[0] == ["vanishing", target]
    expect_diagnoses(got, want, norms, [(a[2], a[3]) for a in diag])


def test_diagnose_infinite_norm_is_nonfinite(student, gen):
    """diagnose: an infinite norm (not NaN) is 'nonfinite', not 'exploding'"""
    state = fresh_state(int(torch.randint(0, 10_000, (1,), generator=gen)), False)
    names = lone_modules(state, False)
    target = names[int(torch.randint(0, len(names), (), generator=gen))]
    base = [["new", 0], ["inject", injected_grads(gen, state, False, fill_inf=target)]]
    norms = judge_script(state, False, base + [["norms", 0]])[0]
    diag = [["diagnose", 0, 1e-9, 1e3]]
    got, want = run(student, state, False, base + diag)
    assert want[0] == ["nonfinite", target] and norms[target] == float("inf")
    expect_diagnoses(got, want, norms, [(a[2], a[3]) for a in diag])
