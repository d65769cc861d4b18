"""Hidden checks of reshape_is_view (exercise 3): compared with PyTorch's reshape on meta tensors."""
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

pytestmark = pytest.mark.task("reshape_view")


def judge(student, cases):
    res = student.call("reshape_view_cases", cases=cases)
    expect(isinstance(res, dict) and len(res["results"]) == len(cases), f"reshape_is_view: the probe returned {res!r:.200}")
    for (shape, stride, new), got in zip(cases, res["results"]):
        want = L.meta(shape, stride, 0).reshape(new)._base is not None
        call = f"reshape_is_view({shape}, {stride}, {new})"
        if "error" in got:
            fail(f"{call}: raised {got['error']}: {got['message']}")
        if got["value"] is not want:
            fail(f"{call}: PyTorch's reshape {'returns a view' if want else 'copies'}, so {want} was expected; "
                 f"got {got['value']!r}")
    return res


def test_matches_reshape(student, gen):
    """True exactly when PyTorch's reshape returns a view, over contiguous, transposed, sliced, expanded layouts"""
    r = L.rng(gen)
    cases = [((2, 3), (3, 1), (3, 2)), ((3, 2), (1, 3), (6,)), ((3, 2), (1, 3), (3, 2)), ((4, 3), (6, 2), (12,)),
             ((4, 3), (6, 2), (2, 2, 3)), ((2, 3), (0, 1), (6,)), ((2, 3), (0, 1), (2, 3, 1)),
             ((0, 3), (1, 1), (3, 0)), ((3, 1, 2), (2, 5, 1), (6,)), ((2, 1, 3), (1, 7, 2), (-1,)),
             # two blocks: the second starts at dimension 1, whose stride (not dimension 2's) is its base
             ((2, 2, 1), (4, 2, 1), (4, 1)), ((2, 2, 1), (2, 4, 1), (4,)),
             # zero-size with a -1 that the other sizes pin to 0: reshape infers it and returns a view
             ((0, 3), (1, 1), (-1, 3)), ((4, 0), (0, 1), (2, -1, 2))]
    while len(cases) < 80:
        shape, stride, _ = L.layout(r)
        cases.append((shape, stride, L.new_shape(r, shape, bad=0.0)))
    judge(student, cases)


def test_decides_from_integers(student, gen):
    """decided from the integers alone: no tensor is made and PyTorch's reshape is not asked"""
    # recorded in the judge worker (TorchFunctionMode) while reshape_is_view runs
    r = L.rng(gen)
    cases = [((3, 2), (1, 3), (6,)), ((2, 3), (3, 1), (3, 2)), ((2, 3), (0, 1), (6,)), ((0, 3), (1, 1), (3, 0))]
    while len(cases) < 12:
        shape, stride, _ = L.layout(r)
        cases.append((shape, stride, L.new_shape(r, shape, bad=0.0)))
    res = judge(student, cases)
    expect(not res["torch_calls"], "reshape_is_view must decide from the integers alone (clause: decide from the "
           f"integers alone), but it called {res['torch_calls']}")
