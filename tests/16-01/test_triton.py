"""Hidden checks of the Triton kernel (exercise 5): on the CPU, the kernel run in Triton's interpreter against the
judge's own F.gelu(x, approximate='tanh') * keep / (1 - p), its launch grids, and its registration for CUDA; on a
GPU (make test-gpu), gelu_dropout through the compiled kernel against the judge's composition on the same draw."""
import pytest
import torch
import torch.nn.functional as F

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.probelib import relayout

pytestmark = pytest.mark.task("triton")
f64 = torch.float64
FN = "launch_gelu_dropout"
TOL = {torch.float64: {"atol": 1e-11, "rtol": 1e-9}, torch.float32: {"atol": 1e-5, "rtol": 1e-4}}


def reference(x, keep, p):
    return F.gelu(x, approximate="tanh") * keep / (1 - p)


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_cuda_kernel_in_the_interpreter(student, gen, layout):
    """the function registered as gelu_dropout_op's CUDA kernel launches the Triton kernel and returns
    gelu(x) * keep / (1 - p) laid out like torch.empty_like(x) (run on the CPU, in Triton's interpreter)"""
    p = 0.35
    x = 2 * torch.randn(16, 24, generator=gen, dtype=f64)
    keep = torch.rand(16, 24, generator=gen) >= p
    what = f"gelu_dropout_op's CUDA kernel on {layout} float64 x and keep (16, 24), run in Triton's interpreter"
    res = student.call("triton_cuda_kernel", x=x, keep=keep, p=p, layout=layout)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(res["registered"], "c1601::gelu_dropout_op has no CUDA kernel: register one with "
                              "gelu_dropout_op.register_kernel('cuda')")
    expect(len(res["grids"]) >= 1, f"{what} launched no Triton kernel")
    expect_close(res["out"], reference(x, keep, p), what, **TOL[f64])
    t = torch.empty_like(relayout(x, layout))  # x as the judge lays it out, not as the worker reports it
    expect_equal(res["meta"]["stride"], list(t.stride()), f"the strides of {what} (those of torch.empty_like(x))")


# block=2048: a launch with BLOCK=1024 whatever block is leaves the tail of a grid of cdiv(n, 2048) programs unwritten
CASES = [(1000, torch.float32, None), (3000, torch.float64, None), (1, torch.float32, None), (700, torch.float32, 128),
         (1024, torch.float64, 256), (257, torch.float32, 64), (3000, torch.float32, 2048)]


@pytest.mark.parametrize("n,dtype,block", CASES, ids=[f"n{n}-{str(d)[6:]}-block{b}" for n, d, b in CASES])
def test_kernel_in_the_interpreter(student, gen, n, dtype, block):
    """the kernel, run in Triton's interpreter on the CPU, gives gelu(x) * keep / (1 - p) for every element (the
    last partial block masked), on a grid of triton.cdiv(n, block) programs of block elements each (BLOCK=block,
    a block above 1024 included), and returns a new tensor of x's shape and dtype"""
    p = round(float(torch.empty(()).uniform_(0.05, 0.8, generator=gen)), 3)
    x = (2.5 * torch.randn(n, generator=gen, dtype=f64)).to(dtype)
    keep = torch.rand(n, generator=gen) >= p
    what = f"{FN}(x, keep, {p}{'' if block is None else f', block={block}'}) for {n} {dtype} elements"
    res = student.call("triton_interpreted", x=x, keep=keep, p=p, block=block)
    expect("error" not in res, f"{what} (the kernel run in Triton's interpreter on the CPU) raised {res.get('error')}")
    expect_equal((res["meta"].get("shape"), res["meta"].get("dtype")), ([n], str(dtype)), f"the shape and dtype of {what}")
    expect_close(res["out"], reference(x, keep, p), what, **TOL[dtype])
    size = 1024 if block is None else block
    expect_equal(res["grids"], [[-(-n // size)]], f"the launch grids of {what} (one launch of triton.cdiv(n, block))")
    expect_equal(res["x_after"], x, f"x after {what}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_p_zero(student, gen, dtype):
    """with p == 0 too the kernel runs and the result is gelu(x) * keep: 0 where keep is false (scale 1)"""
    n, block = 300, 128
    x = (2.5 * torch.randn(n, generator=gen, dtype=f64)).to(dtype)
    keep = torch.rand(n, generator=gen) >= 0.5
    keep[0], keep[1] = False, True
    what = f"{FN}(x, keep, 0.0, block={block}) for {n} {dtype} elements, keep false at {int((~keep).sum())} of them"
    res = student.call("triton_interpreted", x=x, keep=keep, p=0.0, block=block)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], reference(x, keep, 0.0), f"{what} (the text: its result equals "
                 f"F.gelu(x, approximate='tanh') * keep / (1 - p) for any p in [0, 1): at p == 0, 0 where keep is "
                 f"false, not gelu(x))", **TOL[dtype])
    expect_equal(res["grids"], [[-(-n // block)]], f"the launch grids of {what} (the kernel runs at p == 0 too)")


def test_each_call_a_new_tensor(student, gen):
    """each call returns a new tensor: a second call on inputs of the same shape and dtype leaves the first call's
    result as it was"""
    p = 0.3
    x1, x2 = (2 * torch.randn(6, 50, generator=gen, dtype=f64) for _ in range(2))
    keep = torch.rand(6, 50, generator=gen) >= p
    what = f"{FN}(x1, keep, {p}) then {FN}(x2, keep, {p}), x1 and x2 float64 tensors of shape (6, 50)"
    res = student.call("triton_two_calls", x1=x1, x2=x2, keep=keep, p=p)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["first"], reference(x1, keep, p), f"the first result of {what}, read after the second call (a "
                 f"new tensor each call: not a cached buffer that the next call writes again)", **TOL[f64])
    expect_close(res["second"], reference(x2, keep, p), f"the second result of {what}", **TOL[f64])
    expect(not res["same_storage"], f"{what}: the two results share memory; each call must return a new tensor")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_large_inputs(student, gen, dtype):
    """the result equals F.gelu(x, approximate='tanh') * keep / (1 - p) for large inputs too (GELU is x far to the
    right and 0 far to the left): a tanh that overflows gives nan there; near the dtype's largest value a dropped
    element is 0 even where gelu(x) / (1 - p) overflows, and a kept one far to the left is 0 even where x / (1 - p)
    overflows"""
    p = 0.75  # scale 4: (0.5 * scale) * x overflows too at -0.6 * big (with scale 4/3 only x * scale did)
    mag = torch.logspace(0, 4, 24, dtype=f64) * (1 + 0.1 * torch.rand(24, generator=gen, dtype=f64))
    # "0 where keep is false": gelu(x) * scale is inf for the first, and inf * 0 would be nan; the kept ones far to
    # the left: gelu(-0.9 * big) * scale is -0, while (x * scale) * 0.5 * (1 + tanh u) is -inf * 0 = nan
    big = torch.finfo(dtype).max
    x = torch.cat([mag, -mag, torch.tensor([0.9 * big, -0.9 * big, 0.6 * big, -0.6 * big, 0.9 * big, -0.9 * big],
                                           dtype=f64)]).to(dtype)
    keep = torch.cat([torch.rand(48, generator=gen) >= p, torch.tensor([False, False, True, True, True, True])])
    what = (f"{FN}(x, keep, {p}) for {dtype} x with |x| from 1 to 1e4 and 0.6 and 0.9 times the largest {dtype}, "
            f"kept and dropped (the text: any finite values, large ones included)")
    res = student.call("triton_interpreted", x=x, keep=keep, p=p, block=32)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], reference(x, keep, p), what, **TOL[dtype])


def test_launch_on_x_device(student, gen):
    """every tensor launch_gelu_dropout hands the kernel is on x's device: none made by a factory without device=
    (recorded while it runs in the interpreter, a stand-in for a GPU)"""
    p = 0.3
    x = 2 * torch.randn(100, generator=gen, dtype=f64)
    keep = torch.rand(100, generator=gen) >= p
    what = f"{FN}(x, keep, {p}, block=64) on 100 float64 elements"
    res = student.call("triton_placement", x=x, keep=keep, p=p)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(not res["unplaced_args"], f"{what}: the kernel's arguments at positions {res['unplaced_args']} were made "
           "by a factory without device= (torch.empty(shape, dtype=...) is on the CPU when x is on a GPU); make them "
           "with torch.empty_like(x) or device=x.device")
    expect_close(res["out"], reference(x, keep, p), what, **TOL[f64])


@pytest.mark.parametrize("n,block", [(700, 128), (257, 64), (5, 16)], ids=["n700-block128", "n257-block64", "n5-block16"])
def test_kernel_skips_past_n(student, gen, n, block):
    """the kernel skips the elements at n or past it: launched into the first n elements of a larger buffer, it
    leaves the rest of the buffer as it was, and it loads and stores nothing outside x, keep and out's first n
    elements; program i handles elements i * BLOCK to i * BLOCK + BLOCK - 1 only (a grid of one program writes the
    first block)"""
    p, sentinel = 0.3, 1234.5
    x = 2 * torch.randn(n, generator=gen, dtype=f64)
    keep = torch.rand(n, generator=gen) >= p
    what = (f"gelu_dropout_kernel[(triton.cdiv({n}, {block}),)](x, keep, out, {n}, scale, BLOCK={block}) on {n} "
            f"float64 elements, out being the first {n} of a buffer of {n + 2 * block} filled with {sentinel}")
    res = student.call("triton_kernel_bounds", x=x, keep=keep, p=p, block=block, sentinel=sentinel)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], reference(x, keep, p), what, **TOL[f64])
    past = res["past"]
    changed = (past != sentinel).nonzero().flatten().tolist()
    expect(not changed, f"{what} wrote past n: the buffer's elements {[n + i for i in changed[:5]]} changed "
                        f"(the mask must skip offsets at n or past it)")
    outside = res["outside"]
    expect(not outside["load"] and not outside["store"],
           f"{what} (Triton's interpreter, every address noted) loaded {outside['load']} and stored {outside['store']} "
           f"elements outside x, keep and out's first {n} elements: the last program's lanes at n or past it must be "
           f"masked in every tl.load and tl.store (an unmasked load reads past the end of the tensor: on a GPU, an "
           f"out-of-bounds access)")
    first = min(block, n)
    one = res["one_program"]
    written = (one[first:] != sentinel).nonzero().flatten().tolist()
    expect(not written, f"gelu_dropout_kernel[(1,)](x, keep, out, {n}, scale, BLOCK={block}) (a grid of one program) on "
                        f"the same inputs wrote the elements {[first + i for i in written[:5]]}: program 0 handles "
                        f"elements 0 to {block - 1} only (program i: i * BLOCK to i * BLOCK + BLOCK - 1; not a loop "
                        f"over further blocks)")
    expect_close(one[:first], reference(x, keep, p)[:first], f"the first {first} elements written by "
                 f"gelu_dropout_kernel[(1,)](x, keep, out, {n}, scale, BLOCK={block})", **TOL[f64])


@pytest.mark.parametrize("shape,dtype", [((0,), torch.float32), ((4, 0), torch.float64)], ids=["(0,)", "(4, 0)"])
def test_empty_launches_nothing(student, gen, shape, dtype):
    """with no element, it launches nothing and returns an empty tensor of x's shape and dtype"""
    shape = tuple(n + int(torch.randint(0, 5, (), generator=gen)) if n else 0 for n in shape)  # per student
    what = f"{FN}(x, keep, 0.5) for {dtype} x of shape {shape}"
    res = student.call("triton_interpreted", x=torch.zeros(shape, dtype=dtype),
                       keep=torch.zeros(shape, dtype=torch.bool), p=0.5)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_equal(res["grids"], [], f"the launches of {what}")
    expect_equal((res["meta"].get("shape"), res["meta"].get("dtype")), (list(shape), str(dtype)),
                 f"the shape and dtype of {what} (those of x, even with no element)")


@pytest.mark.parametrize("layout,keep_layout", [("transposed", None), ("strided", None), ("contiguous", "transposed"),
                                                ("transposed", "contiguous")],
                         ids=["transposed", "strided", "keep-transposed", "x-transposed"])
def test_non_contiguous_inputs(student, gen, layout, keep_layout):
    """non-contiguous x and keep are made contiguous before the launch, each whatever the other's layout: the result
    is right for any layout"""
    p = 0.3
    x = 2 * torch.randn(24, 40, generator=gen, dtype=f64)
    keep = torch.rand(24, 40, generator=gen) >= p
    lay = f"{layout} float64 x and keep" if keep_layout is None else f"{layout} float64 x and {keep_layout} keep"
    what = (f"{FN}(x, keep, {p}) for {lay} (24, 40) (the text: 'runs it on contiguous copies of x and keep')")
    res = student.call("triton_interpreted", x=x, keep=keep, p=p, layout=layout, keep_layout=keep_layout)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], reference(x, keep, p), what, **TOL[f64])


@pytest.mark.gpu
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_cuda_kernel_on_gpu(student, gen, layout):
    """on a GPU, gelu_dropout runs the Triton kernel and equals the unfused composition with the same draw, in value,
    layout and gradient"""
    p, seed = 0.25, int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(64, 96, generator=gen, dtype=torch.float32)
    v = torch.randn(64, 96, generator=gen, dtype=torch.float32)
    what = f"gelu_dropout(x, {p}, generator) for a {layout} float32 CUDA x (64, 96)"
    res = student.call("triton_on_gpu", x=x, p=p, seed=seed, v=v, layout=layout)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(len(res["grids"]) >= 1, f"{what} launched no Triton kernel: register the launcher for CUDA")
    xr = (x.cuda() if layout == "contiguous" else x.cuda().t().contiguous().t()).requires_grad_(True)
    g = torch.Generator(device="cuda").manual_seed(seed)
    keep = torch.rand(xr.shape, generator=g, dtype=xr.dtype, device="cuda") >= p
    out = reference(xr, keep, p)
    expect_close(res["out"], out.detach().cpu(), what, **TOL[torch.float32])
    expect_equal(res["meta"]["stride"], list(torch.empty_like(xr).stride()), f"the strides of {what}")
    expect_close(res["grad"], torch.autograd.grad(out, xr, v.cuda())[0].cpu(), f"the gradient of {what}",
                 **TOL[torch.float32])
