"""Hidden checks for param_groups (task 'param_groups')."""
import runpy
from collections import Counter
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from course.judge.expect import expect_close, fail

pytestmark = pytest.mark.task("param_groups")
P = runpy.run_path(str(Path(__file__).with_name("probes.py")))
MODELS = {"tiny": "a small CNN with BatchNorm, GroupNorm and LayerNorm", "frozen": "the same CNN with a frozen stem and BatchNorm",
          "tied": "an MLP whose two body layers share one weight",
          "prefix": "a model with modules 'head', 'header', 'head2', 'body.head' and 'body_head'",
          "norms": "a model with BatchNorm1d/3d, InstanceNorm1d(affine), GroupNorm, a LayerNorm subclass and a "
                   "Linear named bias_proj (its weight is not a bias), and a bias Parameter of its own named plain 'bias'",
          "seq": "a model with a two-layer bidirectional LSTM (biases bias_ih_l0, bias_hh_l0, ..., bias_hh_l1_reverse), "
                 "a MultiheadAttention (in_proj_bias) and a learned 0-dim temperature (neither a bias nor a "
                 "normalisation parameter)",
          "rnn": "an nn.LSTM(3, 4, num_layers=2, bidirectional=True) passed as the model itself (its biases are named "
                 "bias_ih_l0, bias_hh_l0, ..., bias_hh_l1_reverse at the top level, with no '.' before them)",
          "rootnorm": "an nn.GroupNorm(2, 6) passed as the model itself (a normalisation layer whose parameters are "
                      "named plain 'weight' and 'bias': the module owning them is the model, named '' by "
                      "named_modules())"}


def expected(model, seed, lr, wd, mult, prefix="head", freeze=()):
    """name -> (lr, weight_decay) for every trainable parameter. In these models the biases and the
    normalisation parameters are exactly the 1-D parameters (the notebook says so); a 0-dim one is neither."""
    m = P["build_pg_model"](model, seed, freeze)
    want = {}
    for n, p in m.named_parameters():
        if p.requires_grad:
            want[n] = (lr * mult if n.startswith(prefix + ".") else lr, 0.0 if p.ndim == 1 else wd)
    frozen = [n for n, p in m.named_parameters() if not p.requires_grad]
    return m, want, frozen


def call(student, model, lr=0.01, wd=0.05, mult=10.0, steps=0, seed=3, prefix=None, freeze=()):
    r = student.call("param_groups_run", model=model, seed=seed, lr=lr, weight_decay=wd, head_lr_mult=mult, steps=steps,
                     head_prefix=prefix, freeze=list(freeze))
    if r["error"]:
        fail(r["error"])
    return r


def draw(gen, model):
    """Per-student settings: lr, weight decay, a factor for head_lr_mult, and about a third of the
    model's parameters frozen on top of the model's own frozen ones."""
    m = P["build_pg_model"](model, 0)
    uses = {}
    for _, p in m.named_parameters(remove_duplicate=False):
        uses[id(p)] = uses.get(id(p), 0) + 1
    # a weight shared by two layers is never frozen: listing it twice is the mistake the tied model catches;
    # nor is a weight whose name contains "bias" (bias_proj.weight): frozen, it would hide a substring test;
    # nor the model's own top-level "bias" (NormZoo): frozen, it would hide a test for the suffix ".bias";
    # nor (SeqNet) a bias not named plain "bias" or the 0-dim temperature: frozen, they would hide a test for
    # the exact name "bias" or for p.dim() < 2; nor a normalisation layer's weight (1-D, named "weight"): frozen,
    # it would hide a norm class left out of a hand-written list (an InstanceNorm's, under some seeds)
    names = [n for n, p in m.named_parameters()
             if uses[id(p)] == 1 and not ("bias" in n and p.ndim > 1) and n != "bias"
             and p.ndim != 0 and not ("bias" in n.rsplit(".", 1)[-1] and n.rsplit(".", 1)[-1] != "bias")
             and not (p.ndim == 1 and n.rsplit(".", 1)[-1] == "weight")]
    chosen = torch.randperm(len(names), generator=gen)[:len(names) // 3].tolist()
    u = torch.rand(3, generator=gen, dtype=torch.float64).tolist()
    return {"lr": 0.001 + 0.1 * u[0], "wd": 0.01 + 0.3 * u[1], "factor": 0.5 + u[2],
            "freeze": sorted(names[i] for i in chosen)}


def frozen_text(freeze):
    return f" (with {', '.join(freeze)} also frozen)" if freeze else ""


def by_name(r, what):
    """name -> (lr, wd) from the submission's groups, failing on duplicates."""
    out, counts = {}, Counter()
    for g in r["groups"]:
        for n in g["names"]:
            counts[n] += 1
            out[n] = (g["lr"], g["weight_decay"], g["keys"])
    dup = [n for n, c in counts.items() if c > 1]
    if dup:
        fail(f"{what}: parameter(s) {dup[:5]} appear more than once across your groups (shared weights? "
             f"model.named_parameters() lists each tensor once)")
    return out


@pytest.mark.parametrize("model", ["tiny", "frozen", "tied"])
def test_every_trainable_parameter_exactly_once(student, gen, model):
    """Every trainable parameter is in exactly one group, frozen ones in none, and AdamW accepts the groups"""
    d = draw(gen, model)
    what = f"param_groups on {MODELS[model]}{frozen_text(d['freeze'])}"
    r = call(student, model, freeze=d["freeze"])
    got = by_name(r, what)
    _, want, frozen = expected(model, 3, 0.01, 0.05, 10.0, freeze=d["freeze"])
    missing = sorted(set(want) - set(got))
    if missing:
        fail(f"{what}: these trainable parameters are in no group and would never be updated: {missing[:6]}")
    extra = sorted(set(got) - set(want))
    if extra:
        fail(f"{what}: these should not be in any group: {extra[:6]}"
             + (" (frozen parameters, requires_grad=False)" if set(extra) & set(frozen) else ""))
    err = r["optimizer_error"]
    if err["raised"]:
        fail(f"{what}: torch.optim.AdamW(your groups) raised {err['type']}: {err['message'][:200]}")


@pytest.mark.parametrize("model", ["tiny", "frozen", "tied"])
@pytest.mark.parametrize("mult", [10.0, 0.5])
def test_learning_rates(student, gen, model, mult):
    """Head parameters get lr * head_lr_mult, all others lr"""
    d = draw(gen, model)
    lr, mult = d["lr"], mult * d["factor"]
    what = (f"param_groups(model, lr={lr:.6g}, weight_decay=0.05, head_lr_mult={mult:.6g}) on {MODELS[model]}"
            f"{frozen_text(d['freeze'])}")
    got = by_name(call(student, model, lr=lr, mult=mult, freeze=d["freeze"]), what)
    _, want, _ = expected(model, 3, lr, 0.05, mult, freeze=d["freeze"])
    for n, (lr, _) in want.items():
        if n not in got:
            fail(f"{what}: '{n}' is in no group")
        if got[n][0] is None:
            fail(f"{what}: the group holding '{n}' has no 'lr' key (keys: {got[n][2]})")
        if not abs(got[n][0] - lr) <= 1e-12 * max(1.0, lr):  # a NaN lr is no match either
            fail(f"{what}: '{n}' gets lr={got[n][0]:g}, expected {lr:g}"
                 + (" (it is part of the head)" if n.startswith("head.") else " (it is not part of the head)"))


@pytest.mark.parametrize("model", ["tiny", "frozen", "tied", "norms", "seq", "rnn", "rootnorm"])
def test_weight_decay_rule(student, gen, model):
    """Biases and normalisation parameters get weight_decay 0, all other parameters weight_decay"""
    d = draw(gen, model)
    what = f"param_groups(model, lr=0.01, weight_decay={d['wd']:.6g}) on {MODELS[model]}{frozen_text(d['freeze'])}"
    got = by_name(call(student, model, wd=d["wd"], freeze=d["freeze"]), what)
    _, want, _ = expected(model, 3, 0.01, d["wd"], 10.0, freeze=d["freeze"])
    for n, (_, wd) in want.items():
        if n not in got:
            fail(f"{what}: '{n}' is in no group")
        if got[n][1] is None:
            fail(f"{what}: the group holding '{n}' has no 'weight_decay' key (keys: {got[n][2]})")
        if not abs(got[n][1] - wd) <= 1e-12:  # nor a NaN weight decay
            kind = ("a bias or a normalisation layer's parameter, so no decay: the clause 'biases ... and the parameters "
                    "of normalisation layers ... get weight_decay=0.0'") if wd == 0.0 else "a weight matrix/kernel"
            fail(f"{what}: '{n}' gets weight_decay={got[n][1]:g}, expected {wd:g} ({kind})")


# "body.head": a prefix with a dot of its own (like "classifier.4"), which a test of the name's first component
# (name.split(".")[0] == head_prefix) never matches; its sibling 'body_head' differs only where the dot is, which
# a regular expression built from the prefix without escaping it (re.match(head_prefix + r"\.", name)) matches
# "": no name starts with "." (every parameter gets lr); the head taken as the submodule named head_prefix
# (model.get_submodule(head_prefix)) is the whole model for ""
# "head2.weight": a qualified name equal to the prefix, not starting with prefix + "." (it gets lr); a test that
# also takes `name == head_prefix` as the head gives it lr * head_lr_mult
@pytest.mark.parametrize("prefix", [None, "head2", "body", "body.head", "", "head2.weight"],
                         ids=["default", "head2", "body", "dotted", "empty", "param"])
def test_head_prefix_and_its_separator(student, gen, prefix):
    """Only names starting with head_prefix + "." get lr * head_lr_mult ('header.*', 'head2.*' or a nested
    'body.head.*' are not in the head 'head'); head_prefix can be changed, also to a dotted path"""
    shown = "head" if prefix is None else prefix
    arg = "" if prefix is None else f", head_prefix={prefix!r}"
    d = draw(gen, "prefix")
    lr, mult = d["lr"], 10.0 * d["factor"]
    what = f"param_groups(model, lr={lr:.6g}, weight_decay=0.05, head_lr_mult={mult:.6g}{arg}) on {MODELS['prefix']}"
    got = by_name(call(student, "prefix", lr=lr, mult=mult, prefix=prefix), what)
    _, want, _ = expected("prefix", 3, lr, 0.05, mult, prefix=shown)
    for n, (lr, _) in want.items():
        if n not in got:
            fail(f"{what}: '{n}' is in no group")
        if got[n][0] is None or not abs(got[n][0] - lr) <= 1e-12:
            fail(f"{what}: '{n}' gets lr={got[n][0]}, expected {lr:g}"
                 + (f" (its name starts with '{shown}.')" if n.startswith(shown + ".") else
                    f" (its name does not start with '{shown}.')"))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.generate], database=None)
@given(model=st.sampled_from(list(MODELS)), seed=st.integers(0, 10**6),
       lr=st.floats(1e-4, 0.1), wd=st.floats(0.0, 0.5), mult=st.floats(0.1, 20.0))
def test_adamw_training_matches_reference(student, model, seed, lr, wd, mult):
    """Three AdamW steps with your groups move every parameter exactly as the intended groups do"""
    what = f"AdamW(param_groups(model, lr={lr:.3g}, weight_decay={wd:.3g}, head_lr_mult={mult:.3g})) on {MODELS[model]}"
    r = call(student, model, lr=lr, wd=wd, mult=mult, steps=3, seed=seed)
    if r["optimizer_error"]["raised"]:
        fail(f"{what}: AdamW raised {r['optimizer_error']['type']}: {r['optimizer_error']['message'][:200]}")
    m, want, _ = expected(model, seed, lr, wd, mult)
    params = dict(m.named_parameters())
    groups = {}
    for n, (g_lr, g_wd) in want.items():
        groups.setdefault((g_lr, g_wd), []).append(params[n])
    opt = torch.optim.AdamW([{"params": ps, "lr": a, "weight_decay": b} for (a, b), ps in groups.items()])
    for step in range(3):
        grads = P["pg_grads"](m, seed, step)
        for n, p in m.named_parameters():
            p.grad = grads[n].clone() if n in grads else None
        opt.step()
    for n, p in m.named_parameters():
        if n not in r["params"]:
            fail(f"{what}: parameter '{n}' is missing after training")
        expect_close(r["params"][n], p.detach(), f"{what}: '{n}' after 3 steps", atol=1e-12, rtol=1e-9)
