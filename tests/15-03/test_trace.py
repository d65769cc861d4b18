"""Hidden checks for trace_activations: forward hooks for logging, always removed (task 'trace')."""
import math
import runpy
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect, expect_close, fail

pytestmark = pytest.mark.task("trace")
P = runpy.run_path(str(Path(__file__).with_name("probes.py")))
f64 = torch.float64
INPUTS = {"seq": (6, 7), "twice": (3, 1, 6, 6), "nan": (5, 4), "leaf": (1, 7), "shared": (4, 5), "huge": (5, 4),
          "vast": (5, 4), "empty": (0, 5), "half": (8, 4), "optional": (5, 4), "nested": (3, 4), "direct": (5, 4)}
DESC = {"seq": "nested nn.Sequential with a BatchNorm1d, in training mode", "twice": "a model that calls its ReLU module twice",
        "nan": "a model whose middle layer overflows",
        "huge": "a float64 model whose last layer scales by 1e100 (every value finite, far past float32's range)",
        "vast": "a float64 model whose middle layer outputs values between 1.2e308 and 1.7e308 (every value finite, "
                "their sum past float64's range), then scales them by 1e-300",
        "empty": "Linear(5, 4), Tanh, Linear(4, 2) on an empty batch: every output has 0 elements",
        "half": "a float16 model Linear(4, 6), a layer mapping into (2000, 3000), Tanh (48 finite values near 2500: "
                "their float16 sum overflows, output.mean() and output.std() do not)",
        "leaf": "a model that is itself one leaf module (an nn.Linear(7, 1), named '' by named_modules()), "
                "on one example: a one-element output",
        "optional": "Linear(4, 3), a layer whose only sub-layer slot is None (register_module('act', None): no "
                    "children, so a leaf), Tanh",
        "nested": "a model whose forward traces its own sub-model 'inner' with trace_activations (pre, then "
                  "trace_activations(self.inner, h), then post): two traces overlap",
        "shared": "a model whose one nn.Linear(5, 5) is registered in two sub-blocks, as '0.0' and '1.0', and called "
                  "by both (named_modules() lists that module once, as '0.0')",
        "direct": "a model with leaves fc, act (a Tanh) and out whose forward is self.out(self.act.forward(self.fc(x))): "
                  "act runs through its forward method, not as a module call, so no forward hook fires for it"}


def make_input(model, gen):
    x = torch.randn(*INPUTS[model], generator=gen, dtype=f64)
    return x * 10 if model == "nan" else x.half() if model == "half" else x


def reference(model, seed, x):
    m = P["build_hook_model"](model, seed)
    if isinstance(m, P["SelfTracing"]):
        m.tracer = ref_trace  # the judge's own trace for the model's inner one
    out, recs = ref_trace(m, x)
    return out.detach(), recs


def ref_trace(m, x):
    """The judge's trace: a forward hook on every leaf (no children), records in call order."""
    recs, handles = [], []
    for name, mod in m.named_modules():
        if len(list(mod.children())) == 0:
            def hook(mod, inp, out, name=name):
                o = out.detach()
                recs.append({"name": name, "shape": list(o.shape), "mean": o.mean().item(), "std": o.std().item(),
                             "finite": bool(torch.isfinite(o).all())})
            handles.append(mod.register_forward_hook(hook))
    try:
        out = m(x)
    finally:
        for h in handles:
            h.remove()
    return out, recs


def compare_records(got, want, what, half=False):
    names = [r["name"] for r in got]
    want_names = [r["name"] for r in want]
    if names != want_names:
        fail(f"{what}: expected one record per leaf-module call in call order, names {want_names}; got {names}")
    for g, w in zip(got, want):
        where = f"{what}, record for '{w['name']}'"
        expect(g["shape"] == w["shape"], f"{where}: shape {g['shape']}, expected {w['shape']}")
        for key in ("mean", "std"):
            if g[key] is None:
                fail(f"{where}: no '{key}' entry")
            if not w["finite"]:
                # inf or nan depends on how the statistic is computed; it only has to be non-finite
                expect(not math.isfinite(g[key]), f"{where}: '{key}' is {g[key]:.6g}, but the output is not "
                                                  f"finite, so its {key} cannot be a finite number")
                continue
            n = math.prod(w["shape"])
            if not math.isfinite(w[key]) and n > 1:
                # every value finite, yet output.mean() overflows (the 'vast' layer): inf is only an artefact of
                # summing, and a statistic computed without overflow is no mistake; 'finite' is what is judged here
                continue
            note = (f" (output.{key}() is finite here, every value of the output being finite; a statistic summed in "
                    f"the output's own dtype, such as output.sum() / output.numel() in float16, overflows where "
                    f"output.{key}() does not: the clause '\"mean\" and \"std\" (Python floats: output.mean(), "
                    f"output.std() ...)')") if math.isfinite(w[key]) and not math.isfinite(g[key]) else "" \
                if math.isfinite(w[key]) else (
                f" (the output has {n} element(s): output.{key}()"
                f"{' with PyTorch' + chr(39) + 's default correction' if key == 'std' else ''} gives nan, and the "
                f"record must hold exactly that)")
            # float16 outputs: output.mean() is rounded to float16; a statistic taken in a wider dtype is no mistake
            expect_close(torch.tensor(g[key], dtype=f64), torch.tensor(w[key], dtype=f64), f"{where}, '{key}'{note}",
                         atol=1e-3 if half else 1e-9, rtol=2e-3 if half else 1e-6, equal_nan=True)
        why = ""
        if w["finite"] and math.prod(w["shape"]) == 0:
            why = (" (the output is empty: it has no value that is not finite, so 'True if every output value is "
                   "finite' holds, as bool(torch.isfinite(output).all()) gives)")
        elif w["finite"]:
            why = (" (every output value is finite; a test of a reduction such as output.sum(), which can overflow "
                   "for large finite values, is not a test of every value)")
        expect(g["finite"] == w["finite"], f"{where}: 'finite' is {g['finite']}, expected {w['finite']}{why}")


def run(student, model, gen, user_hook=False, again=None):
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    x = make_input(model, gen)
    if again is not None:  # a second call right after, on a fresh model of kind `again`
        again = (again, int(torch.randint(0, 10**6, (1,), generator=gen)), make_input(again, gen))
    r = student.call("trace_run", model=model, seed=seed, x=x, user_hook=user_hook, again=again)
    return r, reference(model, seed, x), f"trace_activations({DESC[model]}, x of shape {tuple(x.shape)})"


# shared: one leaf registered under two parents; a leaf search of its own over named_children() (not
# named_modules(), which lists each module once) hooks it twice and records each of its calls twice
# huge: statistics taken in float32 (inf) instead of the output's own dtype
# vast: 'finite' from a reduction (torch.isfinite(out.sum())) that overflows although every value is finite
# empty: 'finite' from a fraction or a statistic (nan for an empty output) instead of "every value is finite"
# half: float16, a layer whose sum overflows: a mean taken as output.sum() / numel (inf) instead of output.mean()
# optional: a leaf whose registry holds only a None slot; a leaf test on the registry (`not module._modules`)
# instead of on its children skips it
# nested: the model's forward traces its own sub-model, so two traces overlap; records kept in a module-level
# variable rebound by every call (each call still returns a fresh list) go to the inner call's list
# direct: a leaf run as act.forward(h), which is no module call; a wrapper put on each leaf's forward method (an
# instance attribute) instead of a forward hook records it, forward hooks (the module's own or global) do not
@pytest.mark.parametrize("model", ["seq", "twice", "leaf", "shared", "huge", "vast", "empty", "half", "optional",
                                   "nested", "direct"])
def test_records_match_reference(student, gen, model):
    """One record per leaf-module call, in call order, with the right name, shape, mean, std and finite flag"""
    r, (_, want), what = run(student, model, gen)
    if model == "direct" and "act" in [rec["name"] for rec in r["records"]]:
        fail(f"{what}: records named {[rec['name'] for rec in r['records']]}, expected {[w['name'] for w in want]}: "
             f"act.forward(h) is not a call of the module act, and a forward hook does not fire for it; the clause "
             f"'runs model(x) once with a forward hook on every leaf module ... one dict per leaf-module call': "
             f"register_forward_hook on each leaf, do not replace module.forward")
    if model == "nested":
        inner = r["inner_names"]
        if inner != ["0", "1"]:
            fail(f"{what}: the inner call trace_activations(self.inner, h) returned records named {inner}, expected "
                 f"['0', '1'] (one per call of inner's leaves); the clause '`records` a new list (each call returns "
                 f"its own) with one dict per leaf-module call': keep each call's records in a list of that call, "
                 f"not in a module-level variable that the next call rebinds")
    compare_records(r["records"], want, what, half=model == "half")


@pytest.mark.parametrize("model", ["seq", "twice"])
def test_output_is_the_models_output(student, gen, model):
    """The returned output equals model(x); the hooks do not change it"""
    r, (out, _), what = run(student, model, gen)
    if r["out"] is None:
        fail(f"{what}: the first element of the returned pair is not a tensor")
    note = "" if r["modes_after"] == r["modes_before"] else (
        f" (module training flags were {r['modes_before']} before the call and {r['modes_after']} after: "
        f"output must be what model(x) returns as the model is; eval() changes what a BatchNorm computes)")
    expect_close(r["out"], out, f"{what}, returned output{note}", atol=1e-12, rtol=1e-10)
    # the judge's own model(x) says whether the output carries a graph: the probe's later plain forward is the
    # worker's word (a model frozen after the call gives a plain output without one too)
    want_rg = any(p.requires_grad for p in P["build_hook_model"](model, 0).parameters())
    expect(r["out_requires_grad"] == want_rg,
           f"{what}: the returned output has requires_grad={r['out_requires_grad']}, model(x) on the model as it "
           f"was given gives requires_grad={want_rg}: output must be what model(x) returned, graph included (do not "
           f"run the model under torch.no_grad())")
    expect(r["plain_requires_grad"] == want_rg,
           f"{what}: after the call a plain model(x) gives requires_grad={r['plain_requires_grad']}, expected "
           f"{want_rg}: trace_activations must leave the model's parameters as they were (requires_grad included)")


# the second call: records kept in one module-level list, cleared and refilled by every call and returned
# itself (the notebook's demo keeps `before` and `after` from two calls)
def test_record_value_types(student, gen):
    """Each record holds name as a str, shape as a tuple, mean and std as Python floats, finite as a bool, and no tensor;
    each call returns a list of its own"""
    r, (_, ref), what = run(student, "seq", gen, again="twice")
    second = r["second"]
    if second["same_object"] or second["names_after"] != second["names_before"]:
        fail(f"{what}, then trace_activations({DESC['twice']}) right after: "
             + ("both calls returned the same records list object" if second["same_object"] else
                "the second call changed the list the first call returned")
             + f" (the first call's record names were {second['names_before']}, afterwards "
             f"{second['names_after']}); the clause '`records` a new list (each call returns its own)': build "
             f"the list inside the call, not at module level")
    want = {"name": "str", "shape": "tuple", "mean": "float", "std": "float", "finite": "bool"}
    if not r["records"]:
        fail(f"{what}: no records came back")
    for rec in r["records"]:
        extra = [k for k in rec["tensor_keys"] if k not in want]
        if extra:
            fail(f"{what}, record for '{rec['name']}': key(s) {extra} hold a tensor; the clause 'with keys \"name\", "
                 f"\"shape\", \"mean\", \"std\" and \"finite\"' asks for those plain values only: a tensor kept in a "
                 f"record keeps that activation, and the autograd graph behind it, alive")
        got = dict(rec["types"], shape="tuple" if rec["types"]["shape"] == "Size" else rec["types"]["shape"])
        if got != want:  # torch.Size is a tuple too
            bad = {k: v for k, v in got.items() if v != want[k]}
            fail(f"{what}, record for '{rec['name']}': value types {bad}, expected "
                 f"{ {k: want[k] for k in bad} } (use .item() or float() for the statistics, tuple() for the shape)")
    compare_records(r["records"], ref, what)


def test_nonfinite_flags_locate_the_overflow(student, gen):
    """'finite' is False from the first layer whose output overflows, and True before it"""
    r, (_, want), what = run(student, "nan", gen)
    assert not all(w["finite"] for w in want), "test input did not overflow"  # the check's own precondition
    compare_records(r["records"], want, what)


@pytest.mark.parametrize("model", ["seq", "twice"])
def test_hooks_removed_and_user_hooks_kept(student, gen, model):
    """Afterwards the model has exactly the hooks it had before; a hook the user registered still fires"""
    r, (out, _), what = run(student, model, gen, user_hook=True)
    expect_close(r["out"], out, f"{what}, returned output", atol=1e-12, rtol=1e-10)
    names = sorted(n for n, _ in P["build_hook_model"](model, 0).named_modules())
    for key in ("counts_before", "counts_after"):  # one entry per module of the judge's own copy
        if sorted(r[key]) != names:
            fail(f"{what}: hook counts reported for modules {sorted(r[key])}, expected {names}")
    for name, before in r["counts_before"].items():
        after = r["counts_after"].get(name)
        if after != before:
            fail(f"{what}: module '{name or '<root>'}' had [forward, forward-pre, backward, backward-pre] hook counts "
                 f"{before} before the call and {after} after (remove your handles; keep other hooks)")
    expect(r["glob_after"] == r["glob_before"], f"{what}: global module hooks were left behind "
                                                f"({r['glob_before']} before, {r['glob_after']} after)")
    expect(r["user_fired_during"] == 1, f"{what}: a forward hook the user registered beforehand fired "
                                        f"{r['user_fired_during']} times during the call, expected once")
    expect(r["user_fired_later"] == 1, f"{what}: after the call, the user's own forward hook fired "
                                       f"{r['user_fired_later']} times on the next forward, expected once (was it removed?)")


@pytest.mark.task("trace", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_hooks_removed_when_forward_raises(student, gen):
    """If forward raises, the exception reaches the caller and no hook is left on the model"""
    x = torch.randn(3, 4, generator=gen, dtype=f64)
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    # a RuntimeError, then a KeyboardInterrupt (Ctrl-C while debugging: a BaseException, not an Exception, so
    # an `except Exception:` clean-up misses it where a finally: block does not)
    for model, kind in (("raises", "RuntimeError"), ("interrupt", "KeyboardInterrupt")):
        r = student.call("trace_raising_run", seed=seed, x=x, model=model)
        what = f"trace_activations(model whose forward raises {kind}, x)"
        names = sorted(n for n, _ in P["build_hook_model"](model, 0).named_modules())
        for key in ("counts_before", "counts_after"):  # one entry per module of the judge's own copy
            if sorted(r[key]) != names:
                fail(f"{what}: hook counts reported for modules {sorted(r[key])}, expected {names}")
        err = r["error"]
        expect(err["raised"], f"{what}: returned normally; the {kind} from forward must propagate")
        expect(err["type"] == kind and "deliberate" in err["message"],
               f"{what}: expected the model's own {kind} to propagate, got {err['type']}: {err['message'][:150]}")
        expect(r["same_exception"], f"{what}: the caller got {err['type']}: {err['message'][:150]}, a new exception; "
                                    f"the exception forward raised must itself reach the caller (re-raise it unchanged)")
        expect(r["counts_after"] == r["counts_before"] and r["glob_after"] == r["glob_before"],
               f"{what}: hooks are left on the model after the exception (hook counts per module {r['counts_before']} "
               f"before, {r['counts_after']} after); the clause 'the model must carry exactly the hooks it had before, "
               f"also when forward raises': remove them in a finally: block, which runs for every exception "
               f"(`except Exception:` misses a KeyboardInterrupt)")
