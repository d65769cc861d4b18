"""Probes for 00-01: run next to the submission, return plain data only."""
import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import capture_error, changes, functions_entered, get, global_state
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

# counted by the kernel outside the worker where the grader is root (course/sandbox/native_calls.py):
# PyTorch's own promotion in result_dtype
NATIVE_CALLS = ("dtype_rules",)

# PyTorch's own promotion table in Python: reached under any name, it is not a table of the student's
_TABLES = ("torch/_prims_common/__init__.py", "torch/_refs/__init__.py", "torch/_prims/__init__.py")
# PyTorch's shape and stride arithmetic in Python (infer_size, compute strides, the view helper): view_meta and
# reshape_is_view compute with integers alone, so entering any of these is a call into PyTorch (round 28)
_SHAPE_CODE = _TABLES + ("torch/_prims_common/wrappers.py", "torch/_meta_registrations.py",
                         "torch/_decomp/decompositions.py", "torch/fx/experimental/symbolic_shapes.py")


def _plain(v):
    """Tuples, lists, ints, bools and strings as they are; anything else as its repr (never a student object)."""
    if isinstance(v, (tuple, list)):
        return type(v)(_plain(x) for x in v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    return "<" + type(v).__name__ + "> " + repr(v)[:80]


def _one(fn, *args):
    try:
        return {"value": _plain(fn(*args))}
    except NotImplementedError:
        raise  # not written yet: the judge says so in its own words
    except Exception as exc:
        return {"error": type(exc).__name__, "mro": [c.__name__ for c in type(exc).__mro__],
                "message": str(exc)[:200]}


class _Count(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.seen.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


def _named_calls(torch_calls, entered):
    """The torch functions called, then PyTorch's Python functions entered (plain functions such as infer_size
    before the bodies of modules and classes a first import runs), five at most."""
    named = sorted(set(torch_calls))
    named += ["PyTorch's " + n for n in sorted(entered, key=lambda n: (not n[:1].islower(), n))]
    return named[:5]


def view_meta_cases(ns, cases):
    """view_meta on each (shape, stride, offset, op, args); the torch functions it called on the way."""
    fn = get(ns, "view_meta")
    counter = _Count()
    with counter:  # round 28: torch._prims_common.infer_size makes no tensor, yet it is a call into PyTorch
        out, entered = functions_entered(lambda: [_one(fn, *case) for case in cases], _SHAPE_CODE)
    return {"results": out, "torch_calls": _named_calls(counter.seen, entered)}


def windows_cases(ns, cases, keywords=False):
    """windows(x, size, step) for each case (keywords: called as windows(x=x, size=size, step=step), the names the
    text gives): the result's header and values, whether it shares x's storage, whether it shares x's version
    counter (a view does; a tensor set_ onto x's storage does not), and x's values before and after the call."""
    fn = get(ns, "windows")
    out = []
    counter = _Count()
    for x, size, step in cases:
        before, header = x.clone(), (tuple(x.shape), x.stride(), x.storage_offset())
        try:
            with counter:
                w = fn(x=x, size=size, step=step) if keywords else fn(x, size, step)
        except NotImplementedError:
            raise
        except Exception as exc:
            out.append({"error": type(exc).__name__, "mro": [c.__name__ for c in type(exc).__mro__],
                        "message": str(exc)[:200]})
            continue
        if not isinstance(w, torch.Tensor):
            out.append({"value": _plain(w)})
            continue
        out.append({"shape": tuple(w.shape), "stride": tuple(w.stride()), "offset": w.storage_offset(),
                    "values": w.detach().clone(), "dtype": str(w.dtype),
                    "same_storage": w.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
                    "x_unchanged": bool(torch.equal(before, x)) and header == (tuple(x.shape), x.stride(), x.storage_offset()),
                    "torch_calls": sorted(set(counter.seen))[:8], "version_shared": _version_shared(x, w)})
    return out


def _version_shared(x, w):
    """Whether w shares x's version counter, as every view of x does (an in-place write through either is seen by
    autograd on both): bump x's counter without writing an element and see whether w's moved with it."""
    v = w._version
    torch.autograd.graph.increment_version(x)
    return w._version == v + 1


def windows_huge(ns, cases):
    """windows(x, size, step) for x = torch.zeros(lead).view(...) expanded along a last dimension of `length`
    elements (stride 0: no memory however long); only the result's shape and strides come back (its values are
    one element read over and over). cases: (lead_shape, length, size, step)."""
    fn = get(ns, "windows")
    out = []
    for lead, length, size, step in cases:
        x = torch.zeros(*lead, 1).expand(*lead, length)
        try:
            w = fn(x, size, step)
        except NotImplementedError:
            raise
        except Exception as exc:
            out.append({"error": type(exc).__name__, "message": str(exc)[:200]})
            continue
        out.append({"shape": _plain(tuple(w.shape)), "stride": _plain(tuple(w.stride()))}
                   if isinstance(w, torch.Tensor) else {"value": _plain(w)})
    return out


def windows_error(ns, x, size, step):
    return capture_error(get(ns, "windows"), x, size, step)


def reshape_view_cases(ns, cases):
    """reshape_is_view on each case; the torch functions it called on the way."""
    fn = get(ns, "reshape_is_view")
    counter = _Count()
    with counter:
        out, entered = functions_entered(lambda: [_one(fn, *case) for case in cases], _SHAPE_CODE)
    return {"results": out, "torch_calls": _named_calls(counter.seen, entered)}


class _Forbidden(TorchFunctionMode):
    """Records the torch functions result_dtype may not use: result_type, promote_types, and any call
    that makes or computes a tensor (reading .dtype or .dim() is allowed)."""
    NAMED = ("result_type", "promote_types")

    def __init__(self):
        super().__init__()
        self.seen = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", str(func))
        if name in self.NAMED or isinstance(out, torch.Tensor):
            self.seen.add(name)
        return out


def _operand(spec):
    kind, value = spec
    if kind == "dim":
        return torch.zeros(2, dtype=getattr(torch, value))
    if kind == "zero":
        return torch.zeros((), dtype=getattr(torch, value))
    if kind == "one":
        return torch.zeros(1, dtype=getattr(torch, value))
    if kind == "mat":
        return torch.zeros(2, 2, dtype=getattr(torch, value))
    if kind in ("param", "zparam"):  # a tensor subclass: nn.Parameter, with (2,) or no dimensions
        return parameter(kind, value)
    return PY_NUMBERS[value]


# Python operands by name: the four kinds, then values at the edges of their type (a whole float, a signed zero,
# an infinity, a complex with no imaginary part): the type decides the tier's dtype, never the value
PY_NUMBERS = {"bool": True, "int": 3, "1": 1, "1.0": 1.0, "float": 0.5, "complex": 1j, "False": False, "0": 0, "-7": -7, "2**40": 2**40,
              "2.0": 2.0, "-0.0": -0.0, "inf": float("inf"), "1e20": 1e20, "1+0j": 1 + 0j, "0j": 0j, "-2-0j": -2 - 0j}


def parameter(kind, value):
    """An nn.Parameter of that dtype, of shape (2,) for "param" and 0-dim for "zparam" (the judge builds the same);
    floating and complex ones require grad, as a model's would."""
    dt = getattr(torch, value)
    return torch.nn.Parameter(torch.zeros(2 if kind == "param" else (), dtype=dt),
                              requires_grad=dt.is_floating_point or dt.is_complex)


def result_dtype_cases(ns, pairs, default="float32"):
    """result_dtype on operands built from plain specs, under a default dtype; what the calls changed and
    which forbidden torch calls they made."""
    fn = get(ns, "result_dtype")
    forbidden = _Forbidden()
    saved = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default))
    try:
        before = global_state()
        out = []
        for a, b in pairs:
            x, y = _operand(a), _operand(b)
            keep = [v.clone() if isinstance(v, torch.Tensor) else v for v in (x, y)]
            try:
                with forbidden:
                    got, entered = functions_entered(lambda: fn(x, y), _TABLES)
                forbidden.seen.update("PyTorch's " + n for n in entered)
                # anything but a torch.dtype is marked with its type: a string "torch.float32" is not the dtype
                got = str(got) if isinstance(got, torch.dtype) else "<" + type(got).__name__ + "> " + repr(got)[:80]
            except NotImplementedError:
                raise
            except Exception as exc:
                got = "raised " + type(exc).__name__ + ": " + str(exc)[:120]
            same = all((torch.equal(k, v) and k.dtype == v.dtype and k.shape == v.shape)
                       if isinstance(v, torch.Tensor) else k == v for k, v in zip(keep, (x, y)))
            out.append({"dtype": got, "inputs_unchanged": same})
        left = changes(before, global_state())
    finally:
        torch.set_default_dtype(saved)
    return {"results": out, "changes": left, "forbidden_calls": sorted(forbidden.seen)[:5]}


def result_dtype_same_operands(ns, tensors, numbers, defaults):
    """result_dtype with each tensor built ONCE and met by every Python number in turn, both orders, under each
    default dtype in turn (the same objects, call after call: an answer cached by argument equality, where
    True == 1 == 1.0 and False == 0 == -0.0 == 0j, or kept across set_default_dtype, shows here)."""
    fn = get(ns, "result_dtype")
    built = [_operand(t) for t in tensors]
    forbidden = _Forbidden()  # watched as in every result_dtype probe: an answer from PyTorch is not an answer
    saved = torch.get_default_dtype()
    out = []
    try:
        for default in defaults:
            torch.set_default_dtype(getattr(torch, default))
            for t in built:
                for name in numbers:
                    for a, b in ((t, PY_NUMBERS[name]), (PY_NUMBERS[name], t)):
                        try:
                            with forbidden:
                                got, entered = functions_entered(lambda: fn(a, b), _TABLES)
                            forbidden.seen.update("PyTorch's " + n for n in entered)
                            out.append(str(got) if isinstance(got, torch.dtype) else "<" + type(got).__name__ + ">")
                        except NotImplementedError:
                            raise
                        except Exception as exc:
                            out.append("raised " + type(exc).__name__)
    finally:
        torch.set_default_dtype(saved)
    return {"results": out, "forbidden_calls": sorted(forbidden.seen)[:5]}


_UNARY = {"exp": torch.exp, "sin": torch.sin, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "square": torch.square}


def build_graph(spec):
    """A small autograd graph from a plain description (the judge builds the same one on its side).

    spec: {"seed", "shape", "steps"}; registers start as [x (a leaf with requires_grad), c (a constant)];
    steps: ["unary", name, i] / ["mul", i, j] / ["add", i, j] / ["addcmul", i, j, k] (i + j * k, whose node
    saves j and k as _saved_tensor1/_saved_tensor2) / ["mm", i, j] (a matrix product of square registers,
    whose node saves them as _saved_self/_saved_mat2) / ["neg", i] (a node with no _saved_ attribute at all)
    append a result; ["var_mean", i] appends two, the variance and the mean of register i (one node with two
    outputs, which saves i); ["reg", i] appends register i itself (no new node: ["reg", 0] makes the
    output the leaf x); ["write", i] adds 1 in place to register i; ["write_view", i] adds 1 in place
    to the first element of a view of it; ["freed", i] runs torch.autograd.grad(register i summed, x), which
    frees the saved tensors of i's graph (no .grad is made).
    Returns the registers (the last one is the output)."""
    g = torch.Generator().manual_seed(spec["seed"])
    x = torch.randn(spec["shape"], generator=g, dtype=torch.float64).requires_grad_(True)
    regs = [x, torch.randn(spec["shape"], generator=g, dtype=torch.float64)]
    for step in spec["steps"]:
        kind = step[0]
        if kind == "unary":
            regs.append(_UNARY[step[1]](regs[step[2]]))
        elif kind == "mul":
            regs.append(regs[step[1]] * regs[step[2]])
        elif kind == "add":
            regs.append(regs[step[1]] + regs[step[2]])
        elif kind == "addcmul":
            regs.append(torch.addcmul(regs[step[1]], regs[step[2]], regs[step[3]]))
        elif kind == "neg":
            regs.append(-regs[step[1]])
        elif kind == "mm":
            regs.append(torch.mm(regs[step[1]], regs[step[2]]))
        elif kind == "var_mean":
            regs.extend(torch.var_mean(regs[step[1]]))
        elif kind == "reg":
            regs.append(regs[step[1]])
        elif kind == "write":
            regs[step[1]].add_(1)
        elif kind == "write_view":
            regs[step[1]].view(-1)[:1].add_(1)
        elif kind == "freed":
            try:  # a register that does not reach x, or whose graph an earlier step freed, raises: the same on both sides
                torch.autograd.grad(regs[step[1]].sum(), [regs[0]])
            except RuntimeError:
                pass
        else:
            raise ValueError(kind)
    return regs


def stale_nodes_case(ns, spec):
    """stale_nodes on the graph of spec; whether it ran backward or wrote to any tensor."""
    regs = build_graph(spec)
    versions = [t._version for t in regs]
    reached = []  # a hook on x sees any backward pass that reaches it, autograd.grad included (no .grad made)
    handle = regs[0].register_hook(lambda grad: reached.append(1))
    try:
        got = _plain(get(ns, "stale_nodes")(regs[-1]))
    except NotImplementedError:
        raise
    except Exception as exc:  # reported with the graph it happened on
        got = {"error": type(exc).__name__, "message": str(exc)[:200]}
    finally:
        handle.remove()
    return {"names": got, "grad_made": regs[0].grad is not None, "backward_ran": bool(reached),
            "versions_kept": versions == [t._version for t in regs]}


def build_oplog_case(spec):
    """The leaves and the computation of an OpLogger case from a plain spec (the judge builds the same).

    spec: {"kind": "linear" | "conv" | "mm_ops" | "vec_ops", "seed", "backward", ...}; for conv, "hw" lists the spatial sizes
    (its length, 1 to 3, picks Conv1d/2d/3d) and "weight_grad": False (optional) freezes the weight; for mm_ops, "c3" (optional) is the
    shape of baddbmm's added tensor, which may broadcast to (b, m, n), and "dtype" (optional, float64 when
    absent) an integer dtype for a forward-only case (FlopCounterMode counts integer products too), "out"
    (optional, only without gradients) makes addmm and mm write through out= (the aten.addmm.out and aten.mm.out
    overloads, same packets); for vec_ops, "mk" gives A's shape (m, k) for mv and dot next to an mm, and the result
    is written through a view made inside the block; for every kind "nested" (optional, read by op_logger_case)
    runs the block inside a second, outer OpLogger, "outer_modes" (optional, read by op_logger_case) inside
    FlopCounterMode and the judge's own logging mode, and "grad0" (optional) gives each leaf a zero .grad first, so backward
    adds into it in place (aten.add_ inside the block, which must run exactly once); returns
    (leaves, run) where
    run() does the forward (and backward when spec["backward"]) and returns the output."""
    g = torch.Generator().manual_seed(spec["seed"])
    dtype = getattr(torch, spec.get("dtype", "float64"))

    def rnd(*shape, grad=False):
        if not dtype.is_floating_point:  # integers: no gradients, small values
            return torch.randint(-3, 4, shape, generator=g, dtype=dtype)
        return torch.randn(*shape, generator=g, dtype=dtype).requires_grad_(grad)

    kind = spec["kind"]
    if kind == "linear":
        d_in, hidden, d_out = spec["dims"]
        model = torch.nn.Sequential(torch.nn.Linear(d_in, hidden, bias=spec["bias"][0]), torch.nn.Tanh(),
                                    torch.nn.Linear(hidden, d_out, bias=spec["bias"][1])).double()
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(rnd(*p.shape))
        x = rnd(*spec["batch"], d_in, grad=spec["input_grad"])
        leaves = list(model.parameters()) + ([x] if spec["input_grad"] else [])

        def forward():
            return model(x)
    elif kind == "conv":
        c_in, c_out, k = spec["channels"][0], spec["channels"][1], spec["kernel"]
        # "hw" holds one spatial size per dimension: 1, 2 or 3 of them give Conv1d, Conv2d or Conv3d
        conv = {1: torch.nn.Conv1d, 2: torch.nn.Conv2d, 3: torch.nn.Conv3d}[len(spec["hw"])]
        model = conv(c_in, c_out, k, stride=spec["stride"], padding=spec["padding"],
                     dilation=spec["dilation"], groups=spec["groups"], bias=spec["bias"]).double()
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(rnd(*p.shape))
        if spec.get("weight_grad") is False:  # a frozen weight: convolution_backward's output_mask[1] is false
            model.weight.requires_grad_(False)
        x = rnd(spec["n"], c_in, *spec["hw"], grad=spec["input_grad"])
        leaves = [p for p in model.parameters() if p.requires_grad] + ([x] if spec["input_grad"] else [])

        def forward():
            return model(x)
    elif kind == "mm_ops":
        b, m, k, n = spec["bmkn"]
        a3, b3, c3 = rnd(b, m, k, grad=True), rnd(b, k, n, grad=True), rnd(*spec.get("c3", [b, m, n]), grad=True)
        a2, b2, c2 = rnd(m, k, grad=True), rnd(k, n, grad=True), rnd(n, grad=True)
        leaves = [a3, b3, c3, a2, b2, c2]

        def forward():
            y = torch.bmm(a3, b3) + torch.baddbmm(c3, a3, b3, beta=spec["beta"], alpha=spec["alpha"])
            if spec.get("out"):
                z = (torch.addmm(c2, a2, b2, out=torch.empty(m, n, dtype=dtype))
                     + torch.mm(a2, b2, out=torch.empty(m, n, dtype=dtype)))
            else:
                z = torch.addmm(c2, a2, b2) + torch.mm(a2, b2)
            return y.sum(0) * (z.tanh() if z.is_floating_point() else z)
    elif kind == "vec_ops":
        m, k = spec["mk"]
        a2, v, u = rnd(m, k, grad=True), rnd(k, grad=True), rnd(k, grad=True)
        leaves = [a2, v, u]

        def forward():
            # aten.mv and aten.dot multiply too, but FlopCounterMode gives them no entry; the mm next to them does
            y = torch.mv(a2, v) + a2 @ u + torch.mm(a2, a2.t()).sum(1) * torch.dot(v, u)
            # in-place products are other operators too (aten.addmm_, aten.baddbmm_): FlopCounterMode gives them no entry
            acc, acc3 = torch.zeros(m, m, dtype=dtype), torch.zeros(1, m, m, dtype=dtype)
            acc.addmm_(a2.detach(), a2.detach().t())
            acc3.baddbmm_(a2.detach()[None], a2.detach().t()[None], alpha=2.0)
            y = y + acc.sum(1) + acc3[0].sum(0)
            # aten.addbmm (a sum of batched products into one matrix) is not one of the six packets either: its name
            # ends in "mm" like theirs, but FlopCounterMode gives it no entry
            y = y + torch.addbmm(acc, a2.detach()[None], a2.detach().t()[None]).sum(1)
            # a view made inside the block and written through: it must share buf's memory as without the mode
            buf = torch.zeros(m + 1, dtype=dtype)
            buf[1:].copy_(y)
            return buf * buf.sum()
    else:
        raise ValueError(kind)
    if spec.get("grad0"):
        for t in leaves:
            t.grad = torch.zeros_like(t)

    def run():
        out = forward()
        if spec["backward"]:
            (out * out).sum().backward()
        return out
    return leaves, run


def op_logger_case(ns, spec):
    """The case run under the submission's OpLogger: its log and counts, the output and the gradients."""
    cls = get(ns, "OpLogger")
    leaves, run = build_oplog_case(spec)
    log = cls()
    outer = cls() if spec.get("nested") else None
    if outer is not None:  # an outer logger around the block sees every call that the inner one passes on
        with outer:
            with log:
                out = run()
    elif spec.get("outer_modes"):  # modes that are not OpLoggers around the block see every call just as well
        from torch.utils.flop_counter import FlopCounterMode
        with FlopCounterMode(display=False) as counter:
            with _Seen() as seen:
                with log:
                    out = run()
    else:
        with log:
            out = run()
    got = {**_log_data(log), "out": out.detach().clone(),
           "grads": [None if t.grad is None else t.grad.clone() for t in leaves]}
    if outer is not None:
        got["outer"] = _log_data(outer)
    if spec.get("outer_modes"):
        got["outer_modes"] = {"ops": list(seen.ops),
                              "flops": {str(k): int(v) for k, v in counter.get_flop_counts().get("Global", {}).items()}}
    return got


class _Seen(TorchDispatchMode):
    """The judge's own dispatch mode: the name of every call that reaches it, in order."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def _log_data(log):
    """A logger's ops and flops as plain data, with the types they came in."""
    ops = log.ops
    flops = log.flops
    return {"ops": [o if isinstance(o, str) else _plain(o) for o in ops] if isinstance(ops, list) else _plain(ops),
            "flops": {(k if isinstance(k, str) else _plain(k)): (v if type(v) is int else _plain(v))
                      for k, v in flops.items()} if isinstance(flops, dict) else _plain(flops),
            "ops_type": "list" if isinstance(ops, list) else type(ops).__name__,
            "flops_type": "dict" if isinstance(flops, dict) else type(flops).__name__}


def _log_snapshot(log):
    """A logger's ops and flops as plain data (copies: later changes to the logger do not reach them)."""
    ops, flops = log.ops, log.flops
    return {"ops": _plain(list(ops)) if isinstance(ops, (list, tuple)) else _plain(ops),
            "flops": {str(k): _plain(v) for k, v in flops.items()} if isinstance(flops, dict) else _plain(flops)}


def op_logger_fresh(ns):
    """What a new OpLogger holds before it is used, made after an earlier logger has logged a block; and that
    earlier logger's log before and after the new one is made."""
    cls = get(ns, "OpLogger")
    first = cls()
    with first:
        torch.ones(2, 3) @ torch.ones(3, 2)
    before = _log_snapshot(first)
    fresh = _log_snapshot(cls())
    return {**fresh, "first_before": before, "first_after": _log_snapshot(first)}


def op_logger_raises(ns):
    """An error raised inside the block: does it reach the caller, is the mode stack as before, and what
    does the logger see of an op run after the block."""
    cls = get(ns, "OpLogger")
    depth = torch._C._len_torch_dispatch_stack()
    log = cls()
    seen = "nothing"
    try:
        with log:
            torch.ones(2) + 1
            raise KeyError("from the block")
    except KeyError:
        seen = "KeyError"
    except NotImplementedError:
        raise
    except Exception as exc:
        seen = type(exc).__name__
    after = torch._C._len_torch_dispatch_stack()
    while torch._C._len_torch_dispatch_stack() > depth:
        torch._C._pop_torch_dispatch_stack()
    n = len(log.ops)
    torch.ones(2) * 3
    failing = cls()  # an op that raises inside aten was still dispatched: it belongs in the log
    with failing:
        try:
            torch.mm(torch.ones(2, 3), torch.ones(2, 3))
        except RuntimeError:
            pass
    raising_logged = "aten.mm.default" in [str(o) for o in failing.ops]
    operands = raising_operands()
    products = cls()  # each product that raises has no FLOPs: FlopCounterMode counts a call after it returns
    with products:
        raised = raising_products(operands)
    return {"seen": seen, "depth_before": depth, "depth_after": after,
            "logged_inside": n, "logged_after_exit": len(log.ops) - n,
            "raising_op_logged": raising_logged, "raising_products": _log_data(products), "raised": raised}


def raising_operands():
    """Operands (made outside the block) for raising_products."""
    one = torch.ones
    return {"mm": (one(2, 3), one(2, 3)), "addmm": (one(2, 2), one(2, 3), one(2, 2)),
            "bmm": (one(1, 2, 3), one(1, 2, 3)), "baddbmm": (one(1, 2, 2), one(1, 2, 3), one(1, 2, 2)),
            "conv": (one(1, 2, 5), one(3, 4, 2)), "select": (one(3),), "ok": (one(2, 3), one(3, 4))}


def raising_products(o):
    """mm, addmm, bmm, baddbmm and a convolution whose shapes do not match and a select out of range (an IndexError),
    each of which reaches the dispatch mode and raises there, then one mm that runs (the judge runs the same under FlopCounterMode). Returns what
    each of the six calls raised into the block (None where it returned): an error must reach the caller."""
    calls = [lambda: torch.mm(*o["mm"]), lambda: torch.addmm(*o["addmm"]), lambda: torch.bmm(*o["bmm"]),
             lambda: torch.baddbmm(*o["baddbmm"]), lambda: torch.nn.functional.conv1d(*o["conv"]),
             lambda: o["select"][0].select(0, 5)]  # aten.select raises IndexError, not RuntimeError: its own type
    raised = []
    for call in calls:
        try:
            call()
        except Exception as exc:
            raised.append(type(exc).__name__)
        else:
            raised.append(None)
    torch.mm(*o["ok"])
    return raised
