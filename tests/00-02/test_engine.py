"""Hidden checks of Value (exercise 2): the student's engine against torch.autograd.grad on the same
expressions, built by the judge from plain programs of (op, i, j) over slots (leaves first)."""
import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, expect_close, fail

pytestmark = pytest.mark.task("engine")
f64 = torch.float64
BINARY = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
          "matmul": lambda x, y: x @ y}
UNARY = {"neg": lambda x: -x, "exp": torch.exp, "log": torch.log, "tanh": torch.tanh, "relu": torch.relu,
         "sum": torch.sum}
SYMBOL = {"add": "+", "sub": "-", "mul": "*", "matmul": "@"}


def torch_run(leaves, program):
    """The judge's own values and leaf gradients for a program (torch.autograd)."""
    xs = [t.clone().requires_grad_(True) for t in leaves]
    slots = list(xs)
    for op, i, j in program:
        slots.append(BINARY[op](slots[i], slots[j]) if j is not None else UNARY[op](slots[i]))
    grads = torch.autograd.grad(slots[-1], xs, allow_unused=True)
    return [s.detach() for s in slots], list(grads)


def describe(leaves, program, upto=None):
    names = [f"L{k}{tuple(t.shape)}" for k, t in enumerate(leaves)]
    for op, i, j in program[:upto]:
        names.append(f"({names[i]} {SYMBOL[op]} {names[j]})" if j is not None else f"{names[i]}.{op}()")
    return names[-1] if len(names[-1]) < 300 else names[-1][:300] + "..."


def random_program(gen, n_ops, dtype=f64):
    """Leaves of broadcast-compatible shapes, then n_ops random operations, then a sum."""
    shapes = [(3, 4), (4,), (3, 1), (4, 2), (), (1, 4)]
    leaves = [torch.randn(s, generator=gen, dtype=dtype) for s in shapes]
    info = [{"shape": s, "bounded": True, "positive": False} for s in shapes]
    program = []
    pick = lambda seq: seq[int(torch.randint(0, len(seq), (1,), generator=gen))]  # noqa: E731

    def fits(a, b):
        try:
            return len(torch.broadcast_shapes(a, b)) <= 2
        except RuntimeError:
            return False
    for _ in range(n_ops):
        i = pick(range(len(info)))
        a = info[i]
        kind = pick(["binary", "binary", "matmul", "unary"])
        if kind == "matmul":
            js = [j for j, b in enumerate(info) if len(a["shape"]) == 2 and len(b["shape"]) == 2
                  and a["shape"][1] == b["shape"][0]]
            if js:
                j = pick(js)
                program.append(("matmul", i, j))
                info.append({"shape": (a["shape"][0], info[j]["shape"][1]), "bounded": False, "positive": False})
                continue
            kind = "binary"
        if kind == "binary":
            j = pick([j for j, b in enumerate(info) if fits(a["shape"], b["shape"])])
            op = pick(["add", "sub", "mul"])
            program.append((op, i, j))
            info.append({"shape": torch.broadcast_shapes(a["shape"], info[j]["shape"]),
                         "bounded": a["bounded"] and info[j]["bounded"], "positive": False})
            continue
        ops = ["neg", "tanh", "relu", "sum"] + (["exp"] if a["bounded"] else []) + (["log"] if a["positive"] else [])
        op = pick(ops)
        program.append((op, i, None))
        info.append({"shape": () if op == "sum" else a["shape"], "bounded": op in ("tanh",),
                     "positive": op == "exp"})
    # make the last slot depend on several earlier ones, then reduce it
    for k in range(len(info) - 2, len(info) - 4, -1):
        if fits(info[-1]["shape"], info[k]["shape"]):
            program.append(("add", len(info) - 1, k))
            info.append({"shape": torch.broadcast_shapes(info[-1]["shape"], info[k]["shape"]),
                         "bounded": False, "positive": False})
    program.append(("sum", len(info) - 1, None))
    return leaves, program


def compare(student, leaves, program, *, times=1, what=None, **kw):
    res = student.call("engine_run", leaves=leaves, program=program, times=times, **kw)
    slots, grads = torch_run(leaves, program)
    what = what or f"the expression {describe(leaves, program)}"
    for k, (got, want) in enumerate(zip(res["data"], slots)):
        if isinstance(got, str):
            fail(f"{what}: .data of {describe(leaves, program, k - len(leaves) + 1) if k >= len(leaves) else f'L{k}'} "
                 f"is {got}")
        expect_close(got, want, f"{what}: .data of the Value for "
                     f"{describe(leaves, program, k - len(leaves) + 1) if k >= len(leaves) else f'leaf L{k}'}",
                     atol=1e-10, rtol=1e-9)
    for call, got_grads in enumerate(res["grads"], start=1):
        for k, (got, want) in enumerate(zip(got_grads, grads)):
            where = f"{what}: L{k}.grad after {call} call(s) of out.backward()"
            if want is None:
                expect(got is None, f"{where}: the output does not depend on L{k}, so its .grad must stay None; "
                                    f"got {got if isinstance(got, str) else 'a tensor'}")
                continue
            if not isinstance(got, torch.Tensor):
                fail(f"{where}: expected a tensor of shape {tuple(want.shape)}, got {got}")
            expect(got.dtype == want.dtype, f"{where}: expected dtype {want.dtype}, got {got.dtype}")
            expect_close(got, want * call, where, atol=1e-9, rtol=1e-8)
    return res


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 10))
def test_random_expressions(student, seed, n):
    """values and leaf gradients match torch.autograd.grad on random expressions with broadcasting"""
    leaves, program = random_program(torch.Generator().manual_seed(seed), n)
    compare(student, leaves, program)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "matmul", "neg", "exp", "log", "tanh", "relu"])
def test_each_operation(student, gen, op):
    """each operation alone: value and gradient"""
    a = torch.randn(3, 4, generator=gen, dtype=f64)
    b = torch.randn(4, 2, generator=gen, dtype=f64) if op == "matmul" else torch.randn(3, 4, generator=gen, dtype=f64)
    if op == "log":
        a = a.abs() + 0.1
    program = [(op, 0, 1 if op in BINARY else None), ("sum", 2, None)]
    compare(student, [a, b], program)


@pytest.mark.parametrize("sa,sb", [((3, 1), (4,)), ((), (2, 3)), ((1, 4), (3, 1)), ((2, 3), (2, 3)), ((), (1, 1)),
                                   ((1, 3), (0, 3))])
@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_broadcasting(student, gen, op, sa, sb):
    """gradients of broadcast operands are summed back to each leaf's shape"""
    a, b = torch.randn(sa, generator=gen, dtype=f64), torch.randn(sb, generator=gen, dtype=f64)
    compare(student, [a, b], [(op, 0, 1), ("tanh", 2, None), ("sum", 3, None)])


def test_variable_used_several_times(student, gen):
    """a leaf used several times receives the sum of every path's gradient; two leaves built from one tensor are
    two leaves"""
    x, y = torch.randn(2, 3, generator=gen, dtype=f64), torch.randn(3, generator=gen, dtype=f64)
    # ((x * x) * x + x.tanh() * y - x).sum(): x feeds five operations
    program = [("mul", 0, 0), ("mul", 2, 0), ("tanh", 0, None), ("mul", 4, 1), ("add", 3, 5), ("sub", 6, 0),
               ("sum", 7, None)]
    compare(student, [x, y], program)
    # L2 = Value(t) for the very tensor t of L0: a leaf of its own, whose .grad is its own d(out)/d(L2)
    program = [("mul", 0, 0), ("mul", 3, 0), ("tanh", 0, None), ("mul", 5, 1), ("add", 4, 6), ("sub", 7, 0),
               ("mul", 2, 8), ("sum", 9, None)]
    compare(student, [x, y, x], program, same_tensor=[(2, 0)],
            what=f"the expression {describe([x, y, x], program)} where L0 = Value(t) and L2 = Value(t) wrap the same "
                 f"tensor t (a leaf is a Value you built with Value(data): two Values, two leaves, each with its own "
                 f".grad; a walk that tells Values apart by their .data merges them)")


def test_diamond_inside(student, gen):
    """an intermediate used twice is differentiated through both uses before its inputs"""
    x = torch.randn(4, generator=gen, dtype=f64)
    # h = x.tanh(); ((h * h).exp() + h.relu() - h).sum()
    program = [("tanh", 0, None), ("mul", 1, 1), ("exp", 2, None), ("relu", 1, None), ("add", 3, 4),
               ("sub", 5, 1), ("sum", 6, None)]
    compare(student, [x], program)


def test_two_backward_calls_accumulate(student, gen):
    """a second backward() adds the same gradients again to the leaves"""
    x, w = torch.randn(3, 4, generator=gen, dtype=f64), torch.randn(4, 2, generator=gen, dtype=f64)
    b = torch.randn(2, generator=gen, dtype=f64)
    # ((x @ w + b).tanh() * (x @ w + b)).sum(): intermediates shared, then two backward calls
    program = [("matmul", 0, 1), ("add", 3, 2), ("tanh", 4, None), ("mul", 5, 4), ("sum", 6, None)]
    compare(student, [x, w, b], program, times=2)


def test_grad_cleared_between_calls(student, gen):
    """a .grad the caller clears (None, as zero_grad does) or replaces between two backward() calls is what the
    second call adds to"""
    x, w = torch.randn(3, 4, generator=gen, dtype=f64), torch.randn(4, 2, generator=gen, dtype=f64)
    b = torch.randn(2, generator=gen, dtype=f64)
    given = torch.randn(4, 2, generator=gen, dtype=f64)
    program = [("matmul", 0, 1), ("add", 3, 2), ("tanh", 4, None), ("mul", 5, 4), ("sum", 6, None)]
    res = student.call("engine_run", leaves=[x, w, b], program=program, times=2, reset=["none", given, None])
    _, grads = torch_run([x, w, b], program)
    expr = describe([x, w, b], program)
    wants = [(grads[0], "L0.grad = None (as zero_grad does) between the calls, so the second call's gradient alone"),
             (given + grads[1], "L1.grad = a tensor G of the caller's between the calls, so G plus the second "
                                "call's gradient"),
             (2 * grads[2], "L2.grad left alone, so twice the gradient")]
    for k, (got, (want, how)) in enumerate(zip(res["grads"][1], wants)):
        where = f"the expression {expr}: L{k}.grad after the second out.backward(), with {how}"
        if not isinstance(got, torch.Tensor):
            fail(f"{where}: expected a tensor of shape {tuple(want.shape)}, got {got}")
        expect_close(got, want, f"{where} (backward() adds into .grad as it is when the call starts)",
                     atol=1e-9, rtol=1e-8)


def test_unused_leaf_keeps_none(student, gen):
    """a leaf the output does not depend on keeps grad None"""
    x, unused = torch.randn(3, generator=gen, dtype=f64), torch.randn(3, generator=gen, dtype=f64)
    compare(student, [x, unused], [("exp", 0, None), ("sum", 2, None)])


def test_relu_at_zero(student, gen):
    """the derivative of relu at exactly 0 is 0"""
    x = torch.tensor([-1.0, 0.0, 0.0, 2.0, -0.0], dtype=f64)
    y = torch.randn(5, generator=gen, dtype=f64)
    compare(student, [x, y], [("relu", 0, None), ("mul", 2, 1), ("sum", 3, None)],
            what="(L0.relu() * L1).sum() for L0 = [-1, 0, 0, 2, -0]")


def test_non_finite_values(student):
    """each operation's .data equals torch's result also for NaN and infinite inputs (relu(NaN) is NaN)"""
    x = torch.tensor([float("nan"), float("inf"), -float("inf"), -1.0, 0.0, 2.0], dtype=f64)
    unary = ["relu", "tanh", "exp", "neg", "log"]
    program = [(op, 0, None) for op in unary] + [("add", 1, 2), ("add", 6, 3), ("add", 7, 4), ("add", 8, 5),
                                                  ("sum", 9, None)]
    res = student.call("engine_run", leaves=[x], program=program)
    slots, _ = torch_run([x], program)
    for k, op in enumerate(unary, start=1):
        what = f"L0.{op}() for L0 = [nan, inf, -inf, -1, 0, 2]: .data (torch.{op} gives {slots[k].tolist()})"
        if isinstance(res["data"][k], str):
            fail(f"{what}: {res['data'][k]}")
        expect_close(res["data"][k], slots[k], what, atol=0, rtol=1e-12, equal_nan=True)


def test_signed_zeros(student):
    """-a, a + b, a - b and a * b keep IEEE's (torch's) sign of zero in .data: -(+0) is -0, +0 - +0 is +0"""
    x = torch.tensor([0.0, -0.0, 0.0, -0.0, 1.0], dtype=f64)
    y = torch.tensor([0.0, 0.0, -0.0, -0.0, -0.0], dtype=f64)
    ops = [("neg", 0, None), ("add", 0, 1), ("sub", 0, 1), ("mul", 0, 1)]
    program = ops + [("add", 2, 3), ("add", 6, 4), ("add", 7, 5), ("sum", 8, None)]
    res = student.call("engine_run", leaves=[x, y], program=program)
    slots, _ = torch_run([x, y], program)
    for k in range(2, 2 + len(ops)):
        name = describe([x, y], program, k - 1)
        want = slots[k]
        what = (f"{name} for L0 = [0., -0., 0., -0., 1.], L1 = [0., 0., -0., -0., -0.]: .data (Each returns a new "
                f"Value whose .data equals torch's result for the same tensors, for -a, +, - and * the sign of a "
                f"zero too; torch gives {want.tolist()})")
        got = res["data"][k]
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: {got}")
        expect_close(got, want, what, atol=0, rtol=1e-12)
        expect(torch.equal(torch.signbit(got), torch.signbit(want)), f"{what}: got {got.tolist()}")


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16])
def test_values_near_zero(student, gen, dtype):
    """each elementwise operation's .data equals torch's to a few roundings on values from 1e-30 to 30, both signs
    (tanh near 0 included), in float64, float32 and float16"""
    mags = torch.tensor([1e-30, 1e-12, 1e-7, 3e-5, 1e-3, 1e-2, 0.3, 5.0, 30.0], dtype=f64)
    mags = mags * (1 + 0.5 * torch.rand(len(mags), generator=gen, dtype=f64))
    x = torch.cat([mags, -mags]).to(dtype)
    unary = ["tanh", "exp", "relu", "neg"]
    # L0's unary ops, L1 = |L0|'s log, then a sum of the tanh slot as the output
    program = [(op, 0, None) for op in unary] + [("log", 1, None), ("sum", 2, None)]
    leaves = [x, x.abs()]
    res = student.call("engine_run", leaves=leaves, program=program)
    slots, _ = torch_run(leaves, program)
    rtol = {torch.float64: 1e-12, torch.float32: 1e-6, torch.float16: 2e-3}[dtype]
    for k, op in enumerate(unary + ["log"], start=2):
        arg = "L1 = |L0|" if op == "log" else "L0"
        what = (f"{arg}.{op}() for {dtype} L0 = {x.tolist()}: .data (Each returns a new Value whose .data equals "
                f"torch's result for the same tensors; torch.{op} gives {slots[k].tolist()})")
        if isinstance(res["data"][k], str):
            fail(f"{what}: {res['data'][k]}")
        expect(res["data"][k].dtype == dtype, f"{what}: expected dtype {dtype}, got {res['data'][k].dtype}")
        expect_close(res["data"][k], slots[k], what, atol=0, rtol=rtol, equal_nan=True)


def test_backward_on_a_leaf(student, gen):
    """backward() on a 0-dim leaf itself adds d(out)/d(out) = 1 to its own .grad (2 after two calls)"""
    a, b = torch.randn(3, generator=gen, dtype=f64), torch.randn((), generator=gen, dtype=f64)
    compare(student, [a, b], [], times=2, what="out = L1, a 0-dim leaf (L0 unused)")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_float32_leaves(student, gen, dtype):
    """gradients have the leaf's dtype (float32, float16, bfloat16), relu included (also straight on a leaf), and every
    .data torch's dtype"""
    a, b = torch.randn(3, 1, generator=gen).to(dtype), torch.randn(4, generator=gen).to(dtype)
    # ((L0 * L1).relu().tanh().exp() + L1.relu()).sum(): relu's gradient reaches L1 with no cast on the way
    program = [("mul", 0, 1), ("relu", 2, None), ("tanh", 3, None), ("exp", 4, None), ("relu", 1, None),
               ("add", 5, 6), ("sum", 7, None)]
    res = student.call("engine_run", leaves=[a, b], program=program)
    slots, grads = torch_run([a, b], program)
    tol = 1e-4 if dtype == torch.float32 else 3e-2
    for k, (got, want) in enumerate(zip(res["data"], slots)):
        if k < 2:
            continue
        what = (f".data of {describe([a, b], program, k - 1)} with {dtype} leaves L0 (3, 1), L1 (4,) (Each returns a "
                f"new Value whose .data equals torch's result for the same tensors)")
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: {got}")
        expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype} (torch's), got {got.dtype}")
        expect_close(got.double(), want.double(), what, atol=tol, rtol=tol)
    for k, (got, want) in enumerate(zip(res["grads"][0], grads)):
        what = (f"L{k}.grad for ((L0 * L1).relu().tanh().exp() + L1.relu()).sum() with {dtype} leaves L0 (3, 1), "
                f"L1 (4,)")
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: expected a tensor, got {got}")
        expect(got.dtype == dtype, f"{what}: expected dtype {dtype} (the leaf's), got {got.dtype}")
        expect_close(got.double(), want.double(), what, atol=tol, rtol=tol)


def test_float16_near_its_limits(student, gen):
    """float16 leaves near the ends of float16's range: every gradient is torch's, finite where torch's is (no
    intermediate such as 1 / x overflowing)"""
    # L0: three values in [6e-6, 1.4e-5] (1 / L0 overflows float16 below 1.5e-5; L1 / L0 < 65504 does not) and three
    # in [1.5e-5, 6e-5]; L2 in [9, 10.5] (exp up to 36000)
    u = torch.rand(6, generator=gen)
    x = torch.cat([6e-6 + 8e-6 * u[:3], 1.5e-5 + 4.5e-5 * u[3:]]).half()
    c = (0.1 + 0.25 * torch.rand(6, generator=gen)).half()
    e = (9.0 + 1.5 * torch.rand(6, generator=gen)).half()
    w = (1e-3 + 1e-3 * torch.rand(6, generator=gen)).half()
    leaves = [x, c, e, w]
    # (L0.log() * L1).sum() + (L2.exp() * L3).sum()
    program = [("log", 0, None), ("mul", 4, 1), ("sum", 5, None), ("exp", 2, None), ("mul", 7, 3), ("sum", 8, None),
               ("add", 6, 9)]
    res = student.call("engine_run", leaves=leaves, program=program)
    _, grads = torch_run(leaves, program)
    for k, (got, want) in enumerate(zip(res["grads"][0], grads)):
        what = (f"L{k}.grad for (L0.log() * L1).sum() + (L2.exp() * L3).sum() with float16 leaves L0 = "
                f"{x.tolist()}, L1 = {c.tolist()}, L2 = {e.tolist()}, L3 = {w.tolist()} (out.backward() adds "
                f"d(out)/d(leaf) with the leaf's dtype; torch gives {want.tolist()})")
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: expected a tensor, got {got}")
        expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype} (the leaf's), got {got.dtype}")
        expect(bool(torch.isfinite(got).all()), f"{what}: got {got.tolist()}, with non-finite entries where torch's "
                                               f"gradient is finite (an intermediate such as 1 / L0 overflowed "
                                               f"float16; divide by L0 instead)")
        expect_close(got.double(), want.double(), what, atol=3e-2, rtol=3e-2)


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_mixed_dtype_leaves(student, gen, op):
    """with operands of two dtypes the result is promoted, but each leaf's grad has that leaf's dtype"""
    # broadcast pairs (the gradient is summed back, then cast) and pairs where a leaf has the result's shape (the
    # gradient reaches it unsummed, in the promoted dtype, and must still be cast to the leaf's)
    for a, b in [(torch.randn(3, 1, generator=gen), torch.randn(4, generator=gen, dtype=f64)),
                 (torch.randn((), generator=gen, dtype=f64), torch.randn(2, 3, generator=gen)),
                 (torch.randn(2, 3, generator=gen), torch.randn(2, 3, generator=gen, dtype=f64)),
                 (torch.randn(2, 3, generator=gen).to(torch.bfloat16), torch.randn(3, generator=gen).half())]:
        program = [(op, 0, 1), ("tanh", 2, None), ("sum", 3, None)]
        res = student.call("engine_run", leaves=[a, b], program=program)
        slots, grads = torch_run([a, b], program)
        got = res["data"][2]
        what = (f".data of L0 {SYMBOL[op]} L1 with L0 {a.dtype} {tuple(a.shape)} and L1 {b.dtype} {tuple(b.shape)} "
                f"(Each returns a new Value whose .data equals torch's result for the same tensors, broadcasting "
                f"and promoting like torch: a 0-dim operand does not promote a dimensioned one of the same kind)")
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: {got}")
        expect(got.dtype == slots[2].dtype, f"{what}: expected torch's dtype {slots[2].dtype}, got {got.dtype}")
        for k, (got, want) in enumerate(zip(res["grads"][0], grads)):
            what = (f"L{k}.grad for {describe([a, b], program)} with L0 {a.dtype} {tuple(a.shape)} and "
                    f"L1 {b.dtype} {tuple(b.shape)}")
            if not isinstance(got, torch.Tensor):
                fail(f"{what}: expected a tensor, got {got}")
            expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype} (the leaf's; the result was "
                                            f"promoted to {torch.promote_types(a.dtype, b.dtype)}), got {got.dtype}")
            tol = 3e-2 if want.dtype in (torch.float16, torch.bfloat16) else 1e-5  # a rounding either way is fine
            expect_close(got.double(), want.double(), what, atol=tol, rtol=tol)


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_mixed_dtype_summed_then_cast(student, gen, op):
    """a broadcast leaf of a narrower dtype than the result (float16 against float32, float32 against float64) whose
    gradient sums large contributions that cancel: torch sums in the result's dtype, then casts, so the gradient is
    finite"""
    for low, high, big in [(torch.float16, torch.float32, torch.finfo(torch.float16).max),
                           (torch.float32, f64, torch.finfo(torch.float32).max)]:
        a = torch.randn(3, 1, generator=gen).to(low)
        b = torch.ones(4, dtype=high)
        s = big * (1.1 + 0.3 * float(torch.rand((), generator=gen)))  # above the leaf's dtype's largest value
        r = 1e-3 * (1 + torch.rand(2, generator=gen, dtype=f64))
        c = torch.tensor([s, -s, s * float(r[0]), s * float(r[1])], dtype=f64)[torch.randperm(4, generator=gen)]
        c = c.to(high)
        leaves = [a, b, c]
        program = [(op, 0, 1), ("mul", 3, 2), ("sum", 4, None)]
        res = student.call("engine_run", leaves=leaves, program=program)
        _, grads = torch_run(leaves, program)
        got, want = res["grads"][0][0], grads[0]
        what = (f"L0.grad for ((L0 {SYMBOL[op]} L1) * L2).sum() with L0 {low} of shape (3, 1), L1 = ones(4) and L2 = "
                f"{c.tolist()} in {high} (the result is {high}; d(out)/d(L0) sums L2's entries, whose two large ones "
                f"cancel: torch sums the broadcast gradient in {high}, then casts the sum to {low}, giving "
                f"{want.flatten().tolist()})")
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: expected a tensor, got {got}")
        expect(got.dtype == low, f"{what}: expected dtype {low} (the leaf's), got {got.dtype}")
        expect(bool(torch.isfinite(got).all()), f"{what}: got {got.flatten().tolist()}, with non-finite entries where "
                                               f"torch's gradient is finite (cast to {low} before summing, {s:.4g} "
                                               f"overflows it: sum back to the leaf's shape first, then cast)")
        tol = 3e-2 if low == torch.float16 else 1e-5
        expect_close(got.double(), want.double(), what, atol=tol * float(want.abs().max()), rtol=tol)


def test_data_is_the_tensor(student, gen):
    """Value(t) stores t itself as .data (not a copy): an in-place change of t shows in .data"""
    leaves = [torch.randn(3, 4, generator=gen, dtype=f64), torch.randn((), generator=gen, dtype=f64),
              torch.randn(2, 3, generator=gen)]
    res = student.call("engine_stores_data", leaves=leaves)
    for t, r in zip(leaves, res):
        what = (f"v = Value(t) for a {t.dtype} t of shape {tuple(t.shape)}, then t.add_(1.0) (Value(data) takes a "
                f"tensor and stores it as .data)")
        if r["data"] != "ok":
            fail(f"{what}: v.data is {r['data']}")
        expect(r["same"], f"{what}: v.data is neither t nor a view of t's memory (a copy such as t.clone() or "
                          f"t.to(...) that made one); store the tensor itself")
        expect(r["sees_update"], f"{what}: v.data no longer equals t after t changed in place")


def test_grad_none_until_backward(student, gen):
    """.grad is None on every leaf until a backward() reaches it: right after the expressions are built, and after
    out.backward() on a leaf used only in another expression"""
    x, y, z = (torch.randn(3, generator=gen, dtype=f64) for _ in range(3))
    # out = (L0 * L1).sum(); other = (L2 * L2).sum() is built too, but only out.backward() runs
    program = [("mul", 0, 1), ("sum", 3, None), ("mul", 2, 2), ("sum", 5, None)]
    res = student.call("engine_run", leaves=[x, y, z], program=program, out_index=4)
    what = ("out = (L0 * L1).sum() and other = (L2 * L2).sum() built with Value, then out.backward() (.grad is None "
            "until a backward() reaches it; a leaf the output does not depend on keeps .grad as None)")
    for k, g in enumerate(res["before"]):
        expect(g is None, f"{what}: L{k}.grad right after building, before any backward(), is "
                          f"{'a tensor' if isinstance(g, torch.Tensor) else g}, expected None")
    got = res["grads"][0]
    for k, want in ((0, y), (1, x)):
        if not isinstance(got[k], torch.Tensor):
            fail(f"{what}: L{k}.grad after out.backward(): expected a tensor, got {got[k]}")
        expect_close(got[k], want, f"{what}: L{k}.grad after out.backward()", atol=1e-12, rtol=1e-12)
    expect(got[2] is None, f"{what}: L2.grad after out.backward() is "
                           f"{'a tensor' if isinstance(got[2], torch.Tensor) else got[2]}, expected None (out does "
                           f"not depend on L2; only other does)")


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_grads_are_own_tensors(student, gen, op):
    """each leaf's grad shares memory with no other leaf's grad or data"""
    a, b = torch.randn(2, 3, generator=gen, dtype=f64), torch.randn(2, 3, generator=gen, dtype=f64)
    # the gradient reaching op: an expanded view of sum's 0-dim seed, then a fresh contiguous tensor (tanh's rule)
    for program in ([(op, 0, 1), ("sum", 2, None)], [(op, 0, 1), ("tanh", 2, None), ("sum", 3, None)]):
        res = compare(student, [a, b], program)
        if res["shared"]:
            i, j, attr = res["shared"][0]
            fail(f"the expression {describe([a, b], program)}: after out.backward(), L{i}.grad shares memory with "
                 f"L{j}.{attr}; each leaf's .grad must be a tensor of its own")


def test_does_not_use_torch_autograd(student, gen):
    """the engine is written without torch.autograd: while Values are built and backward runs (under
    torch.no_grad() and under enable_grad, on a random expression and on one that uses every operation), no
    torch call returns a tensor that requires grad and autograd's engine never runs (both watched inside the
    worker)"""
    leaves, program = random_program(gen, 6)
    # and one expression that uses every operation, so no operation's rule goes unwatched
    a, b, c = (torch.randn(s, generator=gen, dtype=f64) for s in ((3, 4), (4, 2), (3, 4)))
    every = [("mul", 0, 2), ("add", 3, 0), ("sub", 4, 2), ("neg", 5, None), ("tanh", 6, None), ("exp", 7, None),
             ("log", 8, None), ("relu", 9, None), ("matmul", 10, 1), ("sum", 11, None)]
    for leaves, program, no_grad in ((leaves, program, True), (leaves, program, False), ([a, b, c], every, True)):
        what = f"the expression {describe(leaves, program)}"
        res = student.call("engine_run", leaves=leaves, program=program, no_grad=no_grad)
        # the kernel's count, kept outside your code's process where the grader can (root): a reply cannot hide it
        native = {k: n for k, n in (getattr(student, "native_last", None) or {}).items() if n}
        used = list(res["autograd"]) + [f"{NATIVE_NAMES[k]} ran {n} time(s)" for k, n in native.items()]
        expect(not used, f"{what}, built and differentiated with your Value "
               f"({'under torch.no_grad()' if no_grad else 'with grad mode on'}): torch's autograd was used "
               f"({', '.join(used)}); write the engine yourself: each operation keeps its own backward "
               f"rule, and backward() walks the Values, without requires_grad, torch.autograd.grad, torch.func or "
               f".backward() on tensors")


NATIVE_NAMES = {"autograd_engine": "autograd's engine (a backward pass)",
                "forward_ad": "forward-mode AD (a dual tensor)"}


def test_off_default_device(student, gen):
    """on leaves off the default device (the meta device, the grader's stand-in for a GPU), every operation's .data
    and each leaf's .grad stay on the leaves' device, with the leaf's shape and dtype"""
    shapes = [(3, 4), (4, 2), (3, 4), (4,), ()]
    leaves = [torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    leaves[3] = leaves[3].float()  # a float32 leaf promoted against float64 ones
    leaves[0] = leaves[0].abs() + 0.5
    # ((-((L0 * L2 + L3) - L4)).tanh().exp().log().relu() @ L1).sum() + (L0.log() * L2).sum(): every operation
    program = [("mul", 0, 2), ("add", 5, 3), ("sub", 6, 4), ("neg", 7, None), ("tanh", 8, None), ("exp", 9, None),
               ("log", 10, None), ("relu", 11, None), ("matmul", 12, 1), ("log", 0, None), ("mul", 14, 2),
               ("sum", 15, None), ("sum", 13, None), ("add", 17, 16)]
    what = (f"the expression {describe(leaves, program)} with L3 in float32, the other leaves in float64, all on the "
            f"meta device (the grader's stand-in for a GPU: a tensor made without device= lands on the CPU)")
    res = student.call("engine_off_device", leaves=leaves, program=program)
    if res["error"]:
        fail(f"{what}: raised {res['error']}; build new tensors where the operands are (torch.ones_like(t), "
             f"device=t.device), not with torch.ones(shape)")
    slots, grads = torch_run(leaves, program)
    for k, (got, want) in enumerate(zip(res["data"], slots)):
        name = f"the Value for {describe(leaves, program, k - len(leaves))}" if k >= len(leaves) else f"leaf L{k}"
        expect(isinstance(got, dict) and got == {"device": "meta", "dtype": str(want.dtype), "shape": list(want.shape)},
               f"{what}: .data of {name}: expected {want.dtype} of shape {tuple(want.shape)} on the leaves' device, "
               f"got {got}")
    for k, (got, want) in enumerate(zip(res["grads"], grads)):
        expect(isinstance(got, dict) and got == {"device": "meta", "dtype": str(want.dtype), "shape": list(want.shape)},
               f"{what}: L{k}.grad after out.backward(): expected {want.dtype} of shape {tuple(want.shape)} on the "
               f"leaf's device, got {got}")


def test_deep_expression(student, gen):
    """an expression 3000 operations deep (h = (h + L1).tanh() 1500 times): values and gradients torch's, no
    RecursionError"""
    x, c = torch.randn(3, generator=gen, dtype=f64), 0.1 * torch.randn(3, generator=gen, dtype=f64)
    program = []
    h = 0
    for _ in range(1500):
        program += [("add", h, 1), ("tanh", len(program) + 2, None)]
        h = len(program) + 1
    program.append(("sum", h, None))
    res = student.call("engine_run", leaves=[x, c], program=program)
    slots, grads = torch_run([x, c], program)
    what = ("h = L0, then h = (h + L1).tanh() 1500 times, then h.sum(), for L0, L1 of shape (3,) (an expression 3000 "
            "operations deep, like an unrolled recurrence; out.backward() adds d(out)/d(leaf) for any expression, so "
            "a walk that recurses once per Value and stops at Python's recursion limit of 1000 raises RecursionError; "
            "use a loop with a stack)")
    got = res["data"][-1]
    if not isinstance(got, torch.Tensor):
        fail(f"{what}: .data of the output is {got}")
    expect_close(got, slots[-1], f"{what}: .data of the output", atol=1e-10, rtol=1e-9)
    for k, (g, want) in enumerate(zip(res["grads"][0], grads)):
        if not isinstance(g, torch.Tensor):
            fail(f"{what}: L{k}.grad: expected a tensor of shape (3,), got {g}")
        expect_close(g, want, f"{what}: L{k}.grad (torch gives {want.tolist()})", atol=1e-9, rtol=1e-8)


def test_float16_large_upstream_gradient(student, gen):
    """float16 with a large upstream gradient: (L0.tanh() * L1).sum() with L0 near -4 to -6 and |L1| near 35000 gives
    torch's gradients, finite where torch's are"""
    x = (-3.6 - 2.4 * torch.rand(4, generator=gen)).half()  # tanh within 0.0015 of -1, or -1 itself in float16
    w = ((33000 + 4000 * torch.rand(4, generator=gen)) * torch.tensor([1.0, -1.0, 1.0, -1.0])).half()
    program = [("tanh", 0, None), ("mul", 2, 1), ("sum", 3, None)]
    res = student.call("engine_run", leaves=[x, w], program=program)
    _, grads = torch_run([x, w], program)
    for k, (got, want) in enumerate(zip(res["grads"][0], grads)):
        what = (f"L{k}.grad for (L0.tanh() * L1).sum() with float16 leaves L0 = {x.tolist()}, L1 = {w.tolist()} "
                f"(In float16 too it is torch's gradient: no rule may overflow where torch's gradient does not; torch "
                f"gives {want.tolist()})")
        if not isinstance(got, torch.Tensor):
            fail(f"{what}: expected a tensor, got {got}")
        expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype} (the leaf's), got {got.dtype}")
        expect(bool(torch.isfinite(got).all()), f"{what}: got {got.tolist()}, with non-finite entries where torch's "
                                               f"gradient is finite (an intermediate such as g * (1 - t) overflowed "
                                               f"float16 before (1 + t) brought it back; tanh's rule is "
                                               f"g * (1 - t * t))")
        # 1 - t * t near t = -1 keeps few bits in float16: another correct rule (g / cosh(a) ** 2, or a different
        # rounding order) may differ from torch's by a few units of |L1| * 2**-11, so only that much is asked
        expect_close(got.double(), want.double(), what, atol=float(w.abs().max()) * 2 ** -9, rtol=3e-2)
