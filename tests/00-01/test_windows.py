"""Hidden checks of windows (exercise 2): compared with x.unfold(-1, size, step) on the judge."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_raises, fail
from course.judge.strategies import LAYOUTS, relayout

pytestmark = pytest.mark.task("windows")


def expected(x, size, step):
    if size > x.shape[-1]:
        return None
    return x.unfold(-1, size, step)


def judge(student, cases, what, keywords=False):
    res = student.call("windows_cases", cases=cases, keywords=keywords)
    expect(isinstance(res, list) and len(res) == len(cases), f"{what}: the probe returned {res!r:.200}")
    for (x, size, step), got in zip(cases, res):
        args = f"x=x, size={size}, step={step}" if keywords else f"x, {size}, {step}"
        call = (f"windows({args}) for x of shape {tuple(x.shape)}, stride {x.stride()}, "
                f"offset {x.storage_offset()}, {x.dtype}")
        if "error" in got:
            fail(f"{call}: raised {got['error']}: {got['message']}")
        if "value" in got:
            fail(f"{call}: returned {got['value']}, not a tensor")
        want = expected(x, size, step)
        want_shape = tuple(x.shape[:-1]) + (0, size) if want is None else tuple(want.shape)
        expect(got["shape"] == want_shape, f"{call}: expected shape {want_shape}, got {got['shape']}")
        expect(got["dtype"] == str(x.dtype), f"{call}: expected dtype {x.dtype}, got {got['dtype']}")
        expect("unfold" not in got["torch_calls"], f"{call}: your windows called unfold (clause: with as_strided, "
               "not unfold)")
        expect(got["x_unchanged"], f"{call}: x was changed by the call (clause: x is left unchanged)")
        # an empty result is a view of x too (as_strided with a count of 0 still shares x's storage)
        expect(got["same_storage"], f"{call}: the result does not share x's storage (clause: the result is a view "
               f"of x{', the empty one included' if want is None or want.numel() == 0 else ''}), so it is a copy")
        # a view shares x's version counter too (x.as_strided's result does, the empty one included); a tensor
        # set_ onto x's storage shares the memory but not the counter, so autograd never sees a write through it
        expect(got["version_shared"], f"{call}: the result shares x's storage but not its version counter: it is not a "
               "view of x (clause: with as_strided; the result is a view of x); bumping x._version left the result's "
               "_version where it was (a tensor set_ onto x's storage does that, x.as_strided(...) does not)")
        if want is None or want.numel() == 0:
            continue
        bad = [d for d, n in enumerate(want_shape) if n != 1 and got["stride"][d] != want.stride(d)]
        expect(not bad, f"{call}: expected strides {want.stride()} (as x.unfold gives), got {got['stride']}")
        expect_close(got["values"].double() if got["values"].dtype != torch.bool else got["values"].double(),
                     want.double(), f"{call}: the values", atol=0, rtol=0)


def test_matches_unfold(student, gen):
    """shape, strides and values equal x.unfold(-1, size, step), for x in every layout"""
    cases = []
    for k, layout in enumerate(LAYOUTS):
        shape = [(3, 9), (2, 3, 8), (4, 7), (2, 5, 6), (5, 10), (2, 3, 4, 6)][k]
        x = relayout(torch.randn(shape, generator=gen, dtype=torch.float64), layout)
        size = int(torch.randint(1, shape[-1] + 1, (1,), generator=gen))
        step = int(torch.randint(1, 4, (1,), generator=gen))
        cases.append((x, size, step))
    x1 = torch.randn(12, generator=gen, dtype=torch.float64)
    cases += [(x1, 1, 1), (x1, 12, 1), (x1, 5, 7), (x1, 3, 3), (x1[2:], 4, 2), (x1.view(3, 4).t(), 2, 1)]
    # no elements, but a last dimension long enough: unfold still gives its windows dimension, (0, 4, 2) here
    cases += [(torch.randn(0, 5, generator=gen, dtype=torch.float64), 2, 1)]
    # the last dimension itself expanded (stride 0: the broadcast layout above only expands the first): every
    # window reads one element over and over, and the result is still a view of x (with an offset too)
    col = torch.randn(2, 5, generator=gen, dtype=torch.float64)[:, 2:3]
    cases += [(torch.randn(3, 1, generator=gen, dtype=torch.float64).expand(3, 7), 3, 2),
              (torch.randn(1, generator=gen, dtype=torch.float64).expand(9), 4, 1), (col.expand(2, 6), 2, 3)]
    judge(student, cases, "windows")


def test_is_a_view(student, gen):
    """the result shares x's storage and version counter (a view, not a copy), even for an x with an offset"""
    base = torch.randn(40, generator=gen, dtype=torch.float32)
    cases = [(base[5:35], 4, 2), (base.view(5, 8)[1:, 2:], 3, 1), (base.view(8, 5).t(), 2, 2)]
    judge(student, cases, "windows")


@pytest.mark.task("windows", weight=0.1)  # its right answer is the same for every student: worth little
def test_called_by_keyword(student, gen):
    """called by the names the text gives, windows(x=x, size=size, step=step): the same windows"""
    # "Write windows(x, size, step)": a caller may name the arguments; a windows(x, size, stride) fails such a call
    x = torch.randn(3, 8, generator=gen, dtype=torch.float64)
    judge(student, [(x, 3, 2), (x.t(), 2, 1), (x, 9, 1)], "windows", keywords=True)


def test_other_dtypes(student, gen):
    """any dtype: integers, bools, float16 and bfloat16, contiguous or not, come back in their own dtype"""
    cases = [(torch.randint(-9, 9, (3, 7), generator=gen), 3, 2),
             (torch.randint(0, 2, (2, 9), generator=gen).bool(), 4, 1),
             (torch.randn(6, generator=gen).half(), 2, 3),
             (torch.randint(0, 255, (2, 2, 5), generator=gen).to(torch.uint8), 5, 1)]
    # the same dtypes and more in other layouts: a transposed int8, a bfloat16 with an offset, a strided int32
    cases += [(relayout(torch.randint(-9, 9, (4, 6), generator=gen).to(torch.int8), "transposed"), 2, 2),
              (relayout(torch.randn(3, 7, generator=gen).bfloat16(), "offset"), 3, 2),
              (relayout(torch.randint(-99, 99, (2, 8), generator=gen).to(torch.int32), "strided"), 4, 3)]
    judge(student, cases, "windows")


def test_huge_expanded_length(student, gen):
    """a last dimension expanded with stride 0 past 2**53 elements (it costs no memory): the window count is exact"""
    # "any layout (... expanded with stride 0)" and "shape ... equal those of x.unfold": the count of windows is an
    # integer formula; a float division (math.ceil((length - size + 1) / step)) is off by some units out here
    k = [int(v) for v in torch.randint(1, 10**6, (3,), generator=gen)]
    cases = [((), 2**60 + 5, 3, 7), ((2,), 2**55 + k[0], 2 + k[1] % 8, (3, 7, 11)[k[2] % 3]),
             ((), 2**62 + k[2], 5, 13), ((3,), 2**54 + 1, 2**54 - 1, 1), ((), 2**53 + 3, 2, 2)]
    res = student.call("windows_huge", cases=cases)
    expect(isinstance(res, list) and len(res) == len(cases), f"windows: the probe returned {res!r:.200}")
    for (lead, length, size, step), got in zip(cases, res):
        x = torch.zeros(*lead, 1).expand(*lead, length)
        want = x.unfold(-1, size, step)
        call = (f"windows(x, {size}, {step}) for x = torch.zeros{(*lead, 1)}.expand{(*lead, length)} (stride 0 along "
                "the last dimension)")
        if "error" in got:
            fail(f"{call}: raised {got['error']}: {got['message']}")
        if "value" in got:
            fail(f"{call}: returned {got['value']}, not a tensor")
        expect(tuple(got["shape"]) == tuple(want.shape), f"{call}: expected shape {tuple(want.shape)} (as x.unfold "
               f"gives: (length - size) // step + 1 windows), got {got['shape']}")
        bad = [d for d, n in enumerate(want.shape) if n != 1 and got["stride"][d] != want.stride(d)]
        expect(not bad, f"{call}: expected strides {want.stride()} (as x.unfold gives), got {got['stride']}")


@pytest.mark.task("windows", weight=0.1)  # its right answer is the same for every student: worth little
def test_size_larger_than_length(student, gen):
    """size larger than the last dimension gives an empty result of shape x.shape[:-1] + (0, size), in every layout"""
    x = torch.randn(3, 4, generator=gen, dtype=torch.float64)
    cases = [(x, 5, 1), (x, 9, 3), (x.t(), 4, 2), (torch.randn(0, generator=gen), 1, 1)]
    # every layout (transposed, strided, with an offset, broadcast, channels-last), a size just past the last
    # dimension or a few past it, and any step: still the empty shape, still a view of x
    for k, layout in enumerate(LAYOUTS):
        shape = [(2, 5), (3, 4, 3), (6,), (4, 2, 6), (3, 3), (2, 3, 2, 4)][k]
        y = relayout(torch.randn(shape, generator=gen, dtype=torch.float64), layout)
        extra = int(torch.randint(1, 4, (1,), generator=gen))
        cases.append((y, shape[-1] + extra, int(torch.randint(1, 4, (1,), generator=gen))))
    judge(student, cases, "windows")


@pytest.mark.task("windows", weight=0.1)  # its right answer is the same for every student: worth little
@pytest.mark.parametrize("size,step,shape", [(1, 1, ()), (0, 1, (5,)), (2, 0, (5,)), (-1, 2, (3, 4)), (7, 0, (2, 5)),
                                             (2, -1, (2, 6))])  # a negative step is below 1 too
def test_bad_arguments(student, gen, size, step, shape):
    """ValueError for a 0-dim x, and for size or step below 1"""
    x = torch.randn(shape, generator=gen)
    res = student.call("windows_error", x=x, size=size, step=step)
    expect_raises(res, "ValueError", f"windows(x, {size}, {step}) for x of shape {shape}")
