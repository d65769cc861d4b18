"""Hidden checks of stale_nodes (exercise 5): the judge builds the same graph, walks it itself and runs
PyTorch's backward to confirm which graphs fail."""
import importlib.util
import sys
from pathlib import Path

for _name, _file in (("course_00_01_layouts", "layouts.py"), ("course_00_01_graphs", "probes.py")):
    if _name not in sys.modules:
        _s = importlib.util.spec_from_file_location(_name, Path(__file__).with_name(_file))
        sys.modules[_name] = importlib.util.module_from_spec(_s)
        _s.loader.exec_module(sys.modules[_name])
L, G = sys.modules["course_00_01_layouts"], sys.modules["course_00_01_graphs"]

import pytest  # noqa: E402
import torch  # noqa: E402

from course.judge.expect import expect, fail  # noqa: E402

pytestmark = pytest.mark.task("stale_nodes")


def expected(spec):
    """The judge's own walk, and whether PyTorch's backward fails on the same graph."""
    regs = G.build_graph(spec)
    out = regs[-1]
    names, seen, todo = [], set(), [out.grad_fn] if out.grad_fn is not None else []
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        bad = False
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    getattr(node, attr)
                except RuntimeError:
                    bad = True
        if bad:
            names.append(type(node).__name__)
        todo += [n for n, _ in node.next_functions if n is not None]
    fails = False
    if out.requires_grad:
        try:
            out.sum().backward()
        except RuntimeError:
            fails = True
    return sorted(names), fails


def judge(student, specs):
    for spec in specs:
        want, fails = expected(spec)
        if bool(want) != fails:
            raise RuntimeError(f"judge: backward {'fails' if fails else 'works'} on {spec} but the walk says {want}")
        what = f"stale_nodes(out) for the graph {spec['steps']} (register 0: x, 1: a constant; shape {spec['shape']})"
        got = student.call("stale_nodes_case", spec=spec)
        if isinstance(got["names"], dict) and "error" in got["names"]:
            fail(f"{what}: expected {want}, your stale_nodes raised {got['names']['error']}: {got['names']['message']}")
        if got["names"] != want:
            fail(f"{what}: expected {want} (backward {'fails' if fails else 'succeeds'} there), got {got['names']!r}")
        expect(not got["grad_made"], f"{what}: x.grad appeared (clause: do not run backward)")
        expect(not got.get("backward_ran"), f"{what}: a backward pass reached x (a hook on x saw a gradient, "
               "e.g. from torch.autograd.grad) although no .grad appeared (clause: do not run backward)")
        expect(got["versions_kept"], f"{what}: a tensor's _version changed (clause: do not write to any tensor)")


def vary(case, gen):
    """The case with 0-2 more branches, chosen by the check's seed, that read the register written later
    and join the output (sin and square save that input, so they become stale too; exp and tanh save their
    own output, so they do not): each student's answer differs."""
    steps = case["steps"]
    k = next((i for i, st in enumerate(steps) if st[0].startswith("write")), None)
    if k is None:
        return case
    made = {"unary": 1, "mul": 1, "add": 1, "addcmul": 1, "mm": 1, "neg": 1, "var_mean": 2, "reg": 1}  # registers each step appends
    w, last = steps[k][1], 1 + sum(made.get(st[0], 0) for st in steps[:k])
    extra = []
    for _ in range(int(torch.randint(0, 3, (1,), generator=gen))):
        op = ["sin", "square", "exp", "tanh"][int(torch.randint(0, 4, (1,), generator=gen))]
        extra += [["unary", op, w], ["add", last, last + 1]]
        last += 2
    return {**case, "steps": steps[:k] + extra + steps[k:]}


def test_named_cases(student, gen):
    """the nodes that saved a tensor later written in place, each node once, sorted; [] without a grad_fn"""
    s = int(L.rng(gen).randint(0, 10**6))
    judge(student, [vary(c, gen) for c in [
        {"seed": s, "shape": [3], "steps": [["unary", "exp", 0], ["unary", "sin", 2], ["write", 2]]},
        {"seed": s, "shape": [2, 3], "steps": [["unary", "exp", 0], ["mul", 2, 2], ["unary", "sin", 3], ["write", 2]]},
        {"seed": s, "shape": [4], "steps": [["mul", 0, 1], ["unary", "tanh", 2], ["write", 1]]},
        {"seed": s, "shape": [4], "steps": [["add", 0, 1], ["unary", "sigmoid", 2], ["write", 2]]},
        {"seed": s, "shape": [4], "steps": [["unary", "exp", 0], ["unary", "exp", 0], ["add", 2, 3],
                                            ["write", 2], ["write", 3]]},
        {"seed": s, "shape": [2, 2], "steps": [["unary", "square", 0], ["unary", "sin", 2], ["write_view", 2]]},
        {"seed": s, "shape": [3], "steps": [["add", 0, 1], ["unary", "exp", 2], ["add", 3, 3]]},
        {"seed": s, "shape": [3], "steps": [["add", 1, 1]]},
        # out is the leaf x itself: it requires grad but has no grad_fn, so the answer is []
        {"seed": s, "shape": [3], "steps": [["reg", 0]]},
        # a one-element graph is walked like any other (no shortcut for a "trivial" output)
        {"seed": s, "shape": [1], "steps": [["unary", "exp", 0], ["unary", "sin", 2], ["write", 2]]},
        # only addcmul's _saved_tensor1 (the constant) goes stale: every _saved_ name counts, not just self/other/result
        {"seed": s, "shape": [2, 3], "steps": [["addcmul", 0, 1, 0], ["write", 1]]},
        # only mm's second factor (the constant, MmBackward0's _saved_mat2) goes stale: any _saved_ name counts
        {"seed": s, "shape": [3, 3], "steps": [["mm", 0, 1], ["unary", "exp", 2], ["write", 1]]},
        {"seed": s, "shape": [3], "steps": [["unary", "exp", 0], ["unary", "sin", 2], ["unary", "tanh", 2],
                                            ["add", 3, 4], ["write", 2]]},
        # NegBackward0 saves nothing: the walk must still go through it to the stale SinBackward0 behind it (the
        # only path to that node, whatever branches vary() adds on the written register)
        {"seed": s, "shape": [3], "steps": [["add", 0, 1], ["unary", "sin", 2], ["neg", 3], ["write", 2]]},
        # a graph whose saved tensors an earlier backward freed: reading them raises too, and backward fails
        {"seed": s, "shape": [3], "steps": [["unary", "exp", 0], ["unary", "sin", 2], ["mul", 3, 1], ["freed", 4]]},
        # var_mean's one node has two outputs, both reaching the output: it is one node, named once
        {"seed": s, "shape": [2, 3], "steps": [["unary", "exp", 0], ["var_mean", 2], ["add", 3, 4], ["write", 2]]},
        # c * sin(exp(x)): MulBackward0's first next_functions entry is None (the constant) and the stale nodes lie
        # behind its second one; a None entry is skipped, not the end of the node's list
        {"seed": s, "shape": [3], "steps": [["unary", "exp", 0], ["unary", "sin", 2], ["mul", 1, 3], ["write", 2]]},
    ]])


def test_random_graphs(student, gen):
    """random graphs of exp, sin, sigmoid, tanh, square, mul, add and addcmul with writes through views: one name per stale node"""
    # some also run an earlier backward through a register (its saved tensors freed, reading them raises too)
    # half of them end in c * out with the constant c first: the root's next_functions start with None, and a
    # walk that stops at a None entry (instead of skipping it) finds nothing behind it
    r = L.rng(gen)
    specs = []
    for _ in range(8):
        steps, n = [], 2
        # "freed" (an earlier backward through a register) frees saved tensors, the other way a node goes stale; not
        # in a graph with writes through views, whose CopySlices node hides what its in-place op saved (so backward
        # could fail with no stale _saved_ attribute to find: the text leaves such graphs out)
        other = "freed" if r.random() < 0.4 else "write_view"
        for _ in range(r.randint(3, 7)):
            kind = r.choice(["unary", "unary", "mul", "add", "addcmul", "write", other])
            if kind == "unary":
                steps.append(["unary", r.choice(sorted(G._UNARY)), r.randrange(n)])
                n += 1
            elif kind in ("mul", "add"):
                steps.append([kind, r.randrange(n), r.randrange(n)])
                n += 1
            elif kind == "addcmul":
                steps.append([kind, r.randrange(n), r.randrange(n), r.randrange(n)])
                n += 1
            elif kind == "freed" and n > 2:
                steps.append([kind, r.randrange(2, n)])
            elif n > 2:
                steps.append([kind, r.randrange(1, n)])
        steps.append(["add", n - 1, r.randrange(n)])
        if len(specs) % 2:  # every other graph ends in c * out: its root's first next_functions entry is None
            steps.append(["mul", 1, n])
        specs.append({"seed": r.randint(0, 10**6), "shape": [r.randint(1, 3), r.randint(1, 3)], "steps": steps})
    judge(student, specs)
