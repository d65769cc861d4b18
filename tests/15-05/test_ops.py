"""Hidden checks for aten_ops and unsupported_ops (exercise 4).

The judge exports its own models and counts their operators; the submission's functions get the same programs,
saved by torch.export.save and loaded in its process (cheaper there than exporting and decomposing again).
"""
import importlib.util
import sys
from pathlib import Path

if "course_15_05_judge" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_15_05_judge", Path(__file__).with_name("judge.py"))
    sys.modules["course_15_05_judge"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_15_05_judge"])
J = sys.modules["course_15_05_judge"]

import pytest
import torch

from course.judge.adapter import StudentError
from course.judge.expect import expect

pytestmark = pytest.mark.task("op_inventory")

_CACHE = {}
_FORM = {False: "plain", True: "decomposed"}  # probes.FORMS
_CASE_PAIR = ("aten.clamp.Tensor", "aten.clamp.default")  # CondConvNet calls both
_FORMS = {"ConvNet": (False,), "CondConvNet": (False, True)}  # decompose: the forms the checks read
_LABEL = {("ConvNet", False): "torch.export.export(a CNN whose second Conv2d/BatchNorm2d/ReLU block runs {r} time(s))",
          ("CondConvNet", False): "torch.export.export(a `with torch.no_grad()` block, a torch.cond branch with several "
                                  "operators per side, then a CNN whose second block runs {r} time(s), its logits "
                                  "scaled by a custom operator and reshaped to one vector; dynamic batch)",
          ("CondConvNet", True): "torch.export.export(a no_grad block, a torch.cond branch, then a CNN whose second "
                                 "block runs {r} time(s), a custom operator; dynamic batch).run_decompositions()"}


def _case(student, gen, course_seed, kind, decompose):
    """One export per model kind and student, in the judge and in the probe: the CondConvNet's decomposed
    form is run_decompositions() of that same export (the same repeats, weights and example)."""
    key = (id(student), course_seed, kind)
    if key not in _CACHE:
        hidden = 4
        repeats = int(torch.randint(1, 17, (1,), generator=gen))  # the operator counts differ per student
        J.random_state(kind, hidden, gen)  # drawn as before (the later draws stay the same); the counts need no weights
        example = J.dark(2, gen)
        progs = J.programs(kind, hidden, tuple(example.shape), _FORMS[kind], repeats)
        wants, supported = {}, {}
        for dec in _FORMS[kind]:
            want = wants[dec] = progs[dec][0]
            names = sorted(want)
            # a random half of the operators is "supported", plus a name the program does not call, and the
            # overload packet's name of an unsupported one ("aten.relu" is not "aten.relu.default")
            pick = torch.randperm(len(names), generator=gen)[: len(names) // 2].tolist()
            packets = [n.rsplit(".", 1)[0] for i, n in enumerate(names) if i not in pick and n.count(".") == 2]
            # clamp's two overloads stay unsupported, so that the expected list holds both: "aten.clamp.Tensor"
            # before "aten.clamp.default" in sorted() order (code points), after it in a case-insensitive order
            supported[dec] = sorted(({names[i] for i in pick} - set(_CASE_PAIR)) | {"aten.hardswish.default"}
                                    | set(packets[:1]))
        # the ConvNet's call also counts its program again after an in-place edit (held-out round 27)
        res = student.call("op_inventory", programs={_FORM[dec]: progs[dec][1] for dec in _FORMS[kind]},
                           supported={_FORM[dec]: supported[dec] for dec in _FORMS[kind]}, recount=kind == "ConvNet")
        _CACHE[key] = {dec: (res[_FORM[dec]], wants[dec], supported[dec], _LABEL[(kind, dec)].format(r=repeats))
                       for dec in _FORMS[kind]}
        _CACHE[key]["recount"] = (res.get("recount"), wants[False], _LABEL[(kind, False)].format(r=repeats))
    res, want, supported, label = _CACHE[key][decompose]
    if "raised" in res:  # the student's code raised on this form: this form's checks fail with it
        raise StudentError("op_inventory", res["raised"])
    return res, want, supported, label


def _difference(want: dict, got) -> str:
    """The names whose counts differ first (feedback shortens long text)."""
    if not isinstance(got, dict):
        return "expected a dict"
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    wrong = sorted(k for k in set(want) & set(got) if want[k] != got[k])
    parts = ([f"not counted: {missing}"] if missing else []) + ([f"not called by the program: {extra[:5]}"] if extra else [])
    parts += [f"{k}: expected {want[k]}, got {got[k]!r}" for k in wrong[:5]]
    return "; ".join(parts) or "the same names and counts"


@pytest.mark.parametrize("kind,decompose", [("ConvNet", False), ("CondConvNet", True)])
def test_counts(student, gen, course_seed, kind, decompose):
    """aten_ops counts every ATen operator call of the program"""
    res, want, supported, label = _case(student, gen, course_seed, kind, decompose)
    expect(res["counts"] == want, f"aten_ops(ep) for ep = {label}: {_difference(want, res['counts'])} (expected "
                                  f"{want}, got {res['counts']})")


def test_counts_include_cond_branches(student, gen, course_seed):
    """aten_ops counts the operators inside torch.cond's branch subgraphs, and cond itself; also the body of
    another higher-order operator (a no_grad block's wrap_with_set_grad_enabled), an OpOverload outside the aten
    namespace (a custom operator), and no Python helper such as the operator.mul of a dynamic batch size; a subgraph
    shared by two parent graphs (a nested_compile_region's) is one graph, counted once"""
    res, want, supported, label = _case(student, gen, course_seed, "CondConvNet", False)
    expect(res["counts"] == want, f"aten_ops(ep) for ep = {label}: {_difference(want, res['counts'])}; expected {want} (the operators of every "
                                  f"subgraph, 'cond' and 'wrap_with_set_grad_enabled' included, and the custom "
                                  f"operator 'course1505.scale.default': an OpOverload counts whatever its namespace; "
                                  f"no Python function such as operator.mul; the subgraph repeated_subgraph0 of a "
                                  f"function marked torch.compiler.nested_compile_region, one module that is a child "
                                  f"of two branch graphs, counted once: the task counts \"all `fx.GraphModule`s among "
                                  f"`ep.graph_module.modules()`\", which yields each module once, where a walk "
                                  f"through each graph's children meets it twice), got {res['counts']}")


@pytest.mark.parametrize("kind,decompose", [("ConvNet", False), ("CondConvNet", False)])
def test_unsupported(student, gen, course_seed, kind, decompose):
    """unsupported_ops lists each name not in `supported` once, sorted, as a list (a name is supported only when
    that very string is in the set: an overload packet such as "aten.relu" does not cover "aten.relu.default"; in
    sorted() order, "aten.clamp.Tensor" before "aten.clamp.default")"""
    res, want, supported, label = _case(student, gen, course_seed, kind, decompose)
    expected = sorted(set(want) - set(supported))
    expect(res["missing"] == expected and res["missing_type"] == "list",
           f"unsupported_ops(ep, supported) for ep = {label} and supported = {supported}: expected the list "
           f"{expected}, got {res['missing']!r} (a {res['missing_type']}); a name counted by aten_ops is "
           f"unsupported unless that exact string is in `supported` (a packet name like 'aten.relu' is not "
           f"'aten.relu.default'), and the list is in sorted() order (code points: upper case first)")


@pytest.mark.task("op_inventory", weight=0.1)  # its right answer is a constant (unchanged): worth little
def test_program_unchanged(student, gen, course_seed):
    """neither function changes the ExportedProgram it is given"""
    for kind, decompose in (("ConvNet", False), ("CondConvNet", False)):
        res, want, supported, label = _case(student, gen, course_seed, kind, decompose)
        expect(res["before"] == res["after"], f"aten_ops / unsupported_ops changed ep = {label}: its graph code "
                                              f"differs after the calls")


def test_counts_follow_the_program(student, gen, course_seed):
    """aten_ops counts the program as it is when called: after the caller edits the same program object in place
    (every aten.relu.default node rewritten to aten.sigmoid.default, as a rewriting pass does), a second call counts
    sigmoid, not relu (no result kept from an earlier call, e.g. cached by id(ep))"""
    _case(student, gen, course_seed, "ConvNet", False)
    res, want, label = _CACHE[(id(student), course_seed, "ConvNet")]["recount"]
    raised = res.get("raised") if isinstance(res, dict) else "(no result reported)"
    expect(not raised, f"aten_ops(ep) for ep = {label}, called twice around an in-place edit: it raised "
                       f"{str(raised)[:200]}")
    expect(res["first"] == want, f"aten_ops(ep) for ep = {label}: {_difference(want, res['first'])} (expected "
                                 f"{want}, got {res['first']})")
    edited = {("aten.sigmoid.default" if k == "aten.relu.default" else k): v for k, v in want.items()}
    expect(res["second"] == edited,
           f"aten_ops(ep) for the same ep object after every aten.relu.default node of it was rewritten in place to "
           f"aten.sigmoid.default: {_difference(edited, res['second'])} (expected {edited}, got {res['second']}); the "
           f"task: aten_ops(ep) maps \"every operator the program calls to the number of `call_function` nodes that "
           f"call it\", the program as it is at the call: a result kept from an earlier call (cached by id(ep), which "
           f"the next program may also get once this one is freed) is another program's count")
