"""Hidden checks of view_meta (exercise 1): PyTorch's own view ops on meta tensors with the same header."""
import importlib.util
import sys
from pathlib import Path

if "course_00_01_layouts" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_00_01_layouts", Path(__file__).with_name("layouts.py"))
    sys.modules["course_00_01_layouts"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_00_01_layouts"])
L = sys.modules["course_00_01_layouts"]

import pytest  # noqa: E402

from course.judge.expect import expect, fail  # noqa: E402

pytestmark = pytest.mark.task("view_meta")


def judge(student, cases, what, clause=""):
    """Run the cases through view_meta and compare each with PyTorch; returns the probe's answer (a clause,
    when given, is named in the message of a wrong header)."""
    res = student.call("view_meta_cases", cases=cases)
    expect(isinstance(res, dict) and len(res["results"]) == len(cases), f"{what}: the probe returned {res!r:.200}")
    for case, got in zip(cases, res["results"]):
        kind, want = L.torch_op(*case)
        call = L.describe(case)
        if kind == "error":
            if "error" not in got:
                fail(f"{call} (clause: raise {want} where PyTorch does): PyTorch raises {want}, "
                     f"your view_meta returned {got.get('value')!r}")
            if want not in got["mro"]:
                fail(f"{call}: PyTorch raises {want}, your view_meta raised {got['error']}: {got['message']}")
            continue
        if "error" in got:
            fail(f"{call}: expected {want}, your view_meta raised {got['error']}: {got['message']}")
        v = got["value"]
        ok_types = (isinstance(v, tuple) and len(v) == 3 and isinstance(v[0], tuple) and isinstance(v[1], tuple)
                    and all(isinstance(i, int) for i in v[0] + v[1]) and isinstance(v[2], int))
        if not ok_types:
            fail(f"{call}: expected a tuple (shape tuple, stride tuple, offset int) like {want}, got {v!r}")
        if not L.same_header(v, want):
            fail(f"{call}{f' (clause: {clause})' if clause else ''}: PyTorch gives (shape, stride, offset) = {want}, "
                 f"your view_meta returned {v} (strides of size-1 dimensions and everything but the shape of an empty "
                 "result are not compared)")
    return res


def test_transpose(student, gen):
    """transpose swaps two sizes and two strides, negative dimensions included"""
    r = L.rng(gen)
    cases = []
    while len(cases) < 40:
        shape, stride, off = L.layout(r, min_dims=1)
        n = len(shape)
        cases.append((shape, stride, off, "transpose", (r.randint(-n, n - 1), r.randint(-n, n - 1))))
    # a 0-dim header: PyTorch accepts dimension 0 or -1 and moves nothing
    cases += [((), (), r.randint(0, 9), "transpose", (0, -1)), ((), (), 0, "transpose", (-1, -1))]
    judge(student, cases, "view_meta(..., 'transpose', ...)")


def test_select(student, gen):
    """select adds index * stride to the offset and drops the dimension; negative indices count from the end"""
    r = L.rng(gen)
    cases = []
    while len(cases) < 40:
        shape, stride, off = L.layout(r, min_dims=1)
        d = r.randint(-len(shape), len(shape) - 1)
        if shape[d] == 0:
            continue
        cases.append((shape, stride, off, "select", (d, r.randint(-shape[d], shape[d] - 1))))
    judge(student, cases, "view_meta(..., 'select', ...)")


def test_slice(student, gen):
    """a slice start:stop:step clamps start and stop like Python, moves the offset and multiplies the stride"""
    r = L.rng(gen)
    cases = [((5,), (1,), 0, "slice", (0, 1, 4, 2)), ((5,), (3,), 1, "slice", (0, -2, None, 1)),
             ((4, 6), (6, 1), 2, "slice", (-1, None, -1, 3)), ((4, 6), (6, 1), 0, "slice", (0, 9, 12, 1)),
             ((4, 6), (6, 1), 0, "slice", (1, 5, 2, 1)), ((7,), (2,), 0, "slice", (0, -10, 10, 4))]
    while len(cases) < 50:
        shape, stride, off = L.layout(r, min_dims=1)
        n = len(shape)
        end = lambda: r.choice([None, r.randint(-6, 6)])  # noqa: E731
        cases.append((shape, stride, off, "slice", (r.randint(-n, n - 1), end(), end(), r.randint(1, 4))))
    judge(student, cases, "view_meta(..., 'slice', ...)")


def test_expand(student, gen):
    """expand gives size-1 and new leading dimensions stride 0 and keeps the others (-1 keeps a size)"""
    r = L.rng(gen)
    cases = [((1,), (1,), 0, "expand", ((4, 3),)), ((2, 1), (1, 1), 3, "expand", ((2, 5),)),
             ((2, 1), (1, 1), 0, "expand", ((-1, 0),)), ((), (), 2, "expand", ((3, 2),))]
    while len(cases) < 40:
        shape, stride, off = L.layout(r)
        sizes = [s if r.random() < 0.4 else (-1 if r.random() < 0.3 else (r.randint(0, 4) if s == 1 else s))
                 for s in shape]
        cases.append((shape, stride, off, "expand", (tuple([r.randint(0, 3) for _ in range(r.randint(0, 2))] + sizes),)))
    judge(student, cases, "view_meta(..., 'expand', ...)")


def test_view(student, gen):
    """view keeps the offset and finds strides over blocks of evenly spaced dimensions; -1 is inferred"""
    r = L.rng(gen)
    cases = [((2, 3, 4), (12, 4, 1), 0, "view", ((4, 6),)), ((2, 3, 4), (12, 4, 1), 1, "view", ((-1,),)),
             ((4, 3), (6, 2), 0, "view", ((2, 2, 3),)), ((4, 3), (6, 2), 0, "view", ((12,),)),
             ((3, 1, 4), (4, 99, 1), 0, "view", ((12, 1),)), ((2, 0, 3), (0, 3, 1), 0, "view", ((0, 3, 5),)),
             ((), (), 3, "view", ((1, 1),)), ((1,), (7,), 2, "view", ((),)), ((6, 2), (0, 1), 0, "view", ((3, 2, 2),)),
             ((2, 3), (3, 1), 0, "view", ((3, 2),)), ((2, 2, 2), (4, 2, 1), 0, "view", ((2, 4),)),
             # no elements, yet -1 is inferred: the other sizes multiply to 3, so it stands for 0 (only a -1 next
             # to another 0 cannot be inferred)
             ((0, 3), (3, 1), 0, "view", ((-1, 3),)), ((2, 0, 3), (0, 3, 1), 1, "view", ((3, -1),))]
    while len(cases) < 70:
        shape, stride, off = L.layout(r)
        cases.append((shape, stride, off, "view", (L.new_shape(r, shape, bad=0.0),)))
    judge(student, cases, "view_meta(..., 'view', ...)")


def test_view_raises(student, gen):
    """view raises RuntimeError when the strides cannot be merged, the sizes do not match, or -1 cannot be inferred"""
    r = L.rng(gen)
    cases = [((3, 4), (1, 3), 0, "view", ((12,),)), ((2, 3), (3, 1), 0, "view", ((7,),)),
             ((2, 3), (3, 1), 0, "view", ((-1, -1),)), ((0, 3), (3, 1), 0, "view", ((0, -1),)),
             ((2, 3), (3, 1), 0, "view", ((4, -1),)), ((4, 3), (6, 2), 0, "view", ((3, 4),)),
             ((2, 2), (0, 1), 0, "view", ((4,),)), ((0, 3), (3, 1), 0, "view", ((-1, -1),)),
             ((2, 0), (1, 1), 0, "view", ((-1, 0, -1),)),
             # no elements, but the new shape has some: the size check applies to empty tensors too
             ((0, 3), (3, 1), 0, "view", ((5,),)), ((2, 0), (1, 1), 2, "view", ((1, 2),))]
    while len(cases) < 50:
        shape, stride, off = L.layout(r, min_dims=2)
        if L.torch_op(shape, stride, off, "view", ((-1,),))[0] == "ok":
            continue
        cases.append((shape, stride, off, "view", (L.new_shape(r, shape, bad=0.2),)))
    judge(student, cases, "view_meta(..., 'view', ...) where PyTorch may refuse")


@pytest.mark.task("view_meta", weight=0.1)  # its right answer is the same for every student: worth little
def test_errors(student, gen):
    """dimensions and select indices out of range raise IndexError on drawn headers, 0-dim ones included;
    impossible expands and expands with fewer sizes than dimensions raise RuntimeError"""
    cases = [((3, 4), (4, 1), 0, "transpose", (0, 2)), ((3, 4), (4, 1), 0, "transpose", (-3, 0)),
             # the same dimension twice is still checked: transpose(d, d) with d out of range raises
             ((3, 4), (4, 1), 0, "transpose", (2, 2)), ((5,), (1,), 0, "transpose", (-2, -2)),
             ((), (), 0, "transpose", (0, 1)),
             ((3, 4), (4, 1), 0, "select", (2, 0)), ((3, 4), (4, 1), 0, "select", (1, 4)),
             ((3, 4), (4, 1), 0, "select", (0, -4)), ((3, 0), (1, 1), 0, "select", (1, 0)),
             ((3, 4), (4, 1), 0, "slice", (-3, 0, 2, 1)), ((3, 4), (4, 1), 0, "slice", (2, None, None, 1)),
             ((3, 4), (4, 1), 0, "expand", ((3, 5),)), ((3, 4), (4, 1), 0, "expand", ((4,),)),
             ((3, 1), (1, 1), 0, "expand", ((-1, 3, 2),)), ((2,), (1,), 0, "expand", ((0,),)),
             # a size 0 is "a size other than 1" too: it can neither grow nor become 1
             ((0,), (1,), 0, "expand", ((5,),)), ((2, 0), (1, 1), 0, "expand", ((2, 1),))]
    # random impossible expands: one dimension whose size is not 1 (0 included) asked to become another size,
    # on headers with zero-size, size-1 and stride-0 dimensions and perhaps new leading dimensions
    r = L.rng(gen)
    while len(cases) < 45:
        shape, stride, off = L.layout(r, min_dims=1)
        fixed = [d for d, s in enumerate(shape) if s != 1]
        if not fixed:
            continue
        d = r.choice(fixed)
        sizes = [s if r.random() < 0.5 else (-1 if s != 1 or r.random() < 0.5 else r.randint(0, 3)) for s in shape]
        sizes[d] = r.choice([v for v in range(5) if v != shape[d]])
        cases.append((shape, stride, off, "expand", (tuple([r.randint(1, 3) for _ in range(r.randint(0, 1))] + sizes),)))
    # every error clause on drawn headers (0-dim ones included), not only the hand-picked ones above: a dimension
    # out of range on either side for transpose, select and slice (a 0-dim header has no dimension to select from
    # or slice, while transpose accepts 0 and -1), a select index out of range on either side (a size-0 dimension
    # has none in range), and an expand with fewer sizes than dimensions whose kept sizes all match, the left-out
    # leading sizes often all 1
    cases += [((3, 4), (4, 1), 0, "select", (-3, 1)), ((), (), 1, "select", (0, 0)),
              ((), (), 0, "slice", (-1, None, None, 1)), ((1, 4), (4, 1), 0, "expand", ((4,),))]
    while len(cases) < 90:
        shape, stride, off = L.layout(r)
        n, kind = len(shape), r.choice(["transpose", "select", "index", "slice", "expand"])
        bad = lambda m: r.choice([-m - 1 - r.randint(0, 2), m + r.randint(0, 2)])  # noqa: E731
        if kind == "transpose":
            ds = [bad(max(n, 1)), r.randint(-n, n - 1) if n and r.random() < 0.7 else bad(max(n, 1))]
            r.shuffle(ds)
            case = (shape, stride, off, "transpose", tuple(ds))
        elif kind == "select":
            case = (shape, stride, off, "select", (bad(n), r.randint(-2, 2)))
        elif kind == "slice":
            end = lambda: r.choice([None, r.randint(-4, 4)])  # noqa: E731
            case = (shape, stride, off, "slice", (bad(n), end(), end(), r.randint(1, 3)))
        elif kind == "index" and n:
            d = r.randint(-n, n - 1)
            case = (shape, stride, off, "select", (d, bad(shape[d])))
        elif kind == "expand" and n:
            m = r.randint(1, n)
            if r.random() < 0.6:
                shape = (1,) * m + shape[m:]
            case = (shape, stride, off, "expand", (tuple(-1 if r.random() < 0.3 else s for s in shape[m:]),))
        else:
            continue
        if L.torch_op(*case)[0] == "error":
            cases.append(case)
    judge(student, cases, "view_meta(...) on arguments PyTorch rejects")


@pytest.mark.task("view_meta", weight=0.1)  # its right answer is the same for every student: worth little
def test_integers_only(student, gen):
    """computed with integers alone: no torch calls, and huge sizes cost nothing"""
    big = 10**7
    cases = [((big, big), (big, 1), 0, "view", ((big * big,),)), ((big, big), (1, big), 5, "transpose", (0, 1)),
             ((big, 1), (1, 1), 0, "expand", ((3, big, big),)), ((big, big), (big, 1), 0, "slice", (1, 3, None, 7)),
             ((big, big), (big, 1), 0, "select", (0, big - 1)), ((big, big), (1, big), 0, "view", ((big * big,),))]
    # past 2**53 a float rounds: math.ceil((stop - start) / step) or int(numel / known) gives another integer
    huge = 2**60
    cases += [((huge,), (1,), 0, "slice", (0, 1, None, 3)), ((3, huge), (1, 3), 2, "slice", (1, 2, -1, 3)),
              ((3, 2**59 - 1), (2**59 - 1, 1), 0, "view", ((-1,),))]
    # the probe also records PyTorch's shape arithmetic in Python entered under any name (torch._prims_common's
    # infer_size makes no tensor, so a TorchFunctionMode never sees it: round 28)
    res = judge(student, cases, "view_meta(...) on headers with up to 3 * 2**60 elements",
                clause="using integer arithmetic only; a float rounds past 2**53")
    expect(not res["torch_calls"], "view_meta must use integer arithmetic only (clause: no tensors, no as_strided, "
           f"no calls into PyTorch), but it called {res['torch_calls']}")
