"""Hidden checks of result_dtype (exercise 4): the whole table compared with torch.result_type."""
import pytest
import torch

from course.judge.expect import expect, fail

pytestmark = pytest.mark.task("result_dtype")
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
SCALARS = ["bool", "int", "float", "complex"]
# Python numbers whose value looks like another type's (a whole float, a complex with no imaginary part) and other
# edge values: PY_NUMBERS in probes.py holds the same (the judge and the worker build the same operands)
EDGE_SCALARS = {"False": False, "0": 0, "-7": -7, "2**40": 2**40, "2.0": 2.0, "-0.0": -0.0, "inf": float("inf"),
                "1e20": 1e20, "1+0j": 1 + 0j, "0j": 0j, "-2-0j": -2 - 0j}
HALF_COMPLEX = {str(getattr(torch, n)) for n in ("complex32", "bcomplex32") if hasattr(torch, n)}


def operand(spec):
    kind, value = spec
    if kind == "dim":
        return torch.zeros(2, dtype=getattr(torch, value))
    if kind == "zero":
        return torch.zeros((), dtype=getattr(torch, value))
    if kind == "one":
        return torch.zeros(1, dtype=getattr(torch, value))
    if kind == "mat":
        return torch.zeros(2, 2, dtype=getattr(torch, value))
    if kind in ("param", "zparam"):  # as probes.parameter builds it
        dt = getattr(torch, value)
        return torch.nn.Parameter(torch.zeros(2 if kind == "param" else (), dtype=dt),
                                  requires_grad=dt.is_floating_point or dt.is_complex)
    return {"bool": True, "int": 3, "float": 0.5, "complex": 1j, **EDGE_SCALARS}[value]


def show(spec):
    kind, value = spec
    return {"dim": f"a {value} tensor of shape (2,)", "zero": f"a 0-dim {value} tensor",
            "one": f"a {value} tensor of shape (1,) (one element, one dimension)",
            "mat": f"a {value} tensor of shape (2, 2)",
            "param": f"an nn.Parameter of dtype {value} and shape (2,) (a tensor subclass)",
            "zparam": f"a 0-dim nn.Parameter of dtype {value} (a tensor subclass)",
            "scalar": f"the Python {type(operand(spec)).__name__} {operand(spec)!r}"}[kind]


def judge(student, pairs, default="float32", gen=None):
    if gen is not None:  # the whole table, in an order of the check's seed (so each student's reply differs)
        pairs = [pairs[i] for i in torch.randperm(len(pairs), generator=gen).tolist()]
    saved = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default))
    try:
        wanted = [str(torch.result_type(operand(a), operand(b))) for a, b in pairs]
    finally:
        torch.set_default_dtype(saved)
    keep = [(p, w) for p, w in zip(pairs, wanted) if w not in HALF_COMPLEX]
    res = student.call("result_dtype_cases", pairs=[p for p, _ in keep], default=default)
    expect(isinstance(res, dict) and len(res["results"]) == len(keep), f"result_dtype: the probe returned {res!r:.200}")
    wrong = [(p, w, g["dtype"]) for (p, w), g in zip(keep, res["results"]) if g["dtype"] != w]
    if wrong:
        (a, b), w, g = wrong[0]
        fail(f"result_dtype(a, b) for a = {show(a)}, b = {show(b)} (default dtype {default}): torch.result_type "
             f"gives {w}, yours returned {g} ({len(wrong)} of {len(keep)} pairs differ)")
    changed = [(p, g) for (p, _), g in zip(keep, res["results"]) if not g["inputs_unchanged"]]
    expect(not changed, f"result_dtype changed its inputs (clause: leave a and b unchanged), e.g. for {changed[:1]}")
    expect(not res["changes"], f"result_dtype left global state changed: {res['changes']}")
    return res


def test_dimensioned_pairs(student, gen):
    """two tensors with dimensions: every pair of the twelve dtypes (the within-tier promotion table), of equal and of different ndim"""
    # a 2-d and a 1-d tensor are one tier ("tensors with at least one dimension"): the number of dimensions ranks nothing
    judge(student, [((kind, a), ("dim", b)) for a in DTYPES for b in DTYPES for kind in ("dim", "mat")], gen=gen)


def test_zero_dim_pairs(student, gen):
    """two 0-dim tensors: the same table one tier lower"""
    judge(student, [(("zero", a), ("zero", b)) for a in DTYPES for b in DTYPES], gen=gen)


def test_dim_with_zero_dim(student, gen):
    """a dimensioned tensor with a 0-dim tensor, both orders: the lower tier wins only with a higher category"""
    # a tensor of shape (1,) has one element but one dimension: it sits in the dimensioned tier, not the 0-dim one
    judge(student, [p for a in DTYPES for b in DTYPES for kind in ("dim", "one")
                    for p in (((kind, a), ("zero", b)), (("zero", b), (kind, a)))], gen=gen)


def test_python_numbers(student, gen):
    """Python bool, int, float, complex with tensors of every dtype and tier, both orders (default float32)"""
    pairs = [p for kind in ("dim", "zero") for a in DTYPES for s in SCALARS
             for p in (((kind, a), ("scalar", s)), (("scalar", s), (kind, a)))]
    # the Python type decides, not the value: 2.0 and -0.0 are floats, 1+0j a complex, False a bool, 0 an int
    # (one order per pair, alternating)
    pairs += [(((kind, a), ("scalar", s)) if (i + j) % 2 else (("scalar", s), (kind, a)))
              for kind in ("dim", "zero") for i, a in enumerate(DTYPES) for j, s in enumerate(EDGE_SCALARS)]
    judge(student, pairs, gen=gen)


def test_default_float64(student, gen):
    """a Python float follows the default dtype, and a complex its complex type, under default float64"""
    # the default is read at each call: the same worker first answers a few pairs under float32, then the table
    # under float64 (an answer that keeps the first default it saw fails here, whichever check ran before)
    judge(student, [(("dim", a), ("scalar", s)) for a in ("int32", "bool", "float32") for s in ("float", "complex")])
    judge(student, [p for kind in ("dim", "zero") for a in DTYPES for s in ("float", "complex", "int", "2.0", "1+0j")
                    for p in (((kind, a), ("scalar", s)), (("scalar", s), (kind, a)))], default="float64", gen=gen)


def test_builds_the_table_itself(student, gen):
    """no torch.result_type or promote_types, no PyTorch promotion code, no tensor made or computed: your own table"""
    # recorded in the judge worker while result_dtype runs (a renamed alias is still the same function)
    pairs = [((kind, a), ("scalar", s)) for kind in ("dim", "zero") for a in DTYPES for s in SCALARS]
    pairs += [(("dim", a), (kind, b)) for a in DTYPES for b in DTYPES for kind in ("dim", "zero") if a != b]
    res = judge(student, pairs, gen=gen)
    # the kernel's count, kept outside your code's process where the grader can (root): a reply cannot hide it
    native = (getattr(student, "native_last", None) or {}).get("dtype_rules", 0)
    called = list(res["forbidden_calls"]) + ([f"PyTorch's own promotion (torch.result_type, torch.promote_types or "
                                              f"torch.can_cast) {native} time(s)"] if native else [])
    expect(not called, "result_dtype must build the promotion table itself (clause: without calling "
           "torch.result_type, torch.promote_types or PyTorch's own promotion code, and without making or computing a "
           "tensor), but it called "
           f"{called}")


def test_tensor_subclasses(student, gen):
    """a tensor subclass (nn.Parameter, with and without dimensions) is a tensor like any other, in its own tier"""
    # "each of a and b is a tensor": isinstance, not type(v) is torch.Tensor, tells a tensor from a Python number
    pairs = [p for a in DTYPES for other in (("scalar", "float"), ("scalar", "int"), ("zero", "int8"))
             for p in ((("param", a), other), (other, ("param", a)))]
    pairs += [p for a in DTYPES for other in (("dim", "int8"), ("scalar", "float"))
              for p in ((("zparam", a), other), (other, ("zparam", a)))]
    judge(student, pairs, gen=gen)


def test_same_operands_call_after_call(student, gen):
    """the same tensor met by True, 1, 1.0, False, 0, -0.0, 0j in turn, under float32 then float64: each call answers afresh"""
    # True == 1 == 1.0 and False == 0 == -0.0 == 0j hash alike: an answer memoised on the arguments (functools.lru_cache)
    # gives the first one's dtype to the others, and one kept across set_default_dtype gives the old default's
    tensors = [("dim", "bool"), ("zero", "bool"), ("dim", "int8"), ("zero", "int32"), ("dim", "float16"),
               ("zero", "float64"), ("dim", "bfloat16")]
    numbers = ["bool", "1", "1.0", "False", "0", "-0.0", "0j", "1+0j"]
    order = torch.randperm(len(numbers), generator=gen).tolist()
    numbers = [numbers[i] for i in order]
    values = {"bool": True, "1": 1, "1.0": 1.0, **EDGE_SCALARS}
    defaults = ["float32", "float64"]
    got = student.call("result_dtype_same_operands", tensors=tensors, numbers=numbers, defaults=defaults)
    want, where = [], []
    saved = torch.get_default_dtype()
    try:
        for default in defaults:
            torch.set_default_dtype(getattr(torch, default))
            for t in tensors:
                for name in numbers:
                    for a, b, desc in ((operand(t), values[name], f"result_dtype({show(t)}, {values[name]!r})"),
                                       (values[name], operand(t), f"result_dtype({values[name]!r}, {show(t)})")):
                        want.append(str(torch.result_type(a, b)))
                        where.append(f"{desc} under default {default}")
    finally:
        torch.set_default_dtype(saved)
    expect(isinstance(got, dict) and not got.get("forbidden_calls"),
           "result_dtype must build the promotion table itself (clause: without calling torch.result_type, "
           "torch.promote_types or PyTorch's own promotion code, and without making or computing a tensor), but it "
           f"called {got.get('forbidden_calls') if isinstance(got, dict) else got!r:.200}")
    got = got["results"]
    expect(isinstance(got, list) and len(got) == len(want), f"result_dtype: the probe returned {got!r:.200}")
    wrong = [(w, g, d) for w, g, d in zip(want, got, where) if w not in HALF_COMPLEX and g != w]
    if wrong:
        w, g, d = wrong[0]
        fail(f"{d}, called with the same tensor object as the calls before it (Python numbers in the order "
             f"{[values[n] for n in numbers]}, then again under float64): torch.result_type gives {w}, yours returned "
             f"{g} ({len(wrong)} calls differ; clause: a bool counts as torch.bool, an int as torch.int64, a float as "
             "torch.get_default_dtype() at the time of the call: an answer must not be reused for an equal number "
             "of another type or after the default changed)")
