"""Correct, written differently: Kahn's algorithm (in-degrees) for the order, a Value with one small class per
operation, the packed form as a small object, and evaluate restoring modes with Module.train(mode)
(over every path to a module, so a module shared by two parents gets its own flag back; round 27 also made
graph_nodes a loop, as a graph may be thousands of nodes deep)."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
def graph_nodes(t):
    found = {}
    todo = [t.grad_fn]  # a loop, not recursion: a graph may be thousands of nodes deep (round 27)
    while todo:
        n = todo.pop()
        if n is not None and n not in found:
            found[n] = True
            todo.extend(m for m, _ in n.next_functions)
    return list(found)


def topo_order(t):
    nodes = graph_nodes(t)
    indeg = {n: 0 for n in nodes}
    for n in nodes:
        for m, _ in n.next_functions:
            if m is not None:
                indeg[m] += 1
    ready = [n for n in nodes if indeg[n] == 0]
    order = []
    while ready:
        n = ready.pop()
        order.append(n)
        for m, _ in n.next_functions:
            if m is not None:
                indeg[m] -= 1
                if indeg[m] == 0:
                    ready.append(m)
    return order
''', "engine_impl": '''
class _Op:
    def __init__(self, *inputs):
        self.inputs = inputs


class _Add(_Op):
    def vjp(self, g):
        a, b = self.inputs
        return [g.sum_to_size(a.data.shape).to(a.data.dtype), g.sum_to_size(b.data.shape).to(b.data.dtype)]


class _Sub(_Op):
    def vjp(self, g):
        a, b = self.inputs
        return [g.sum_to_size(a.data.shape).to(a.data.dtype), (-g).sum_to_size(b.data.shape).to(b.data.dtype)]


class _Mul(_Op):
    def vjp(self, g):
        a, b = self.inputs
        return [(g * b.data).sum_to_size(a.data.shape).to(a.data.dtype),
                (g * a.data).sum_to_size(b.data.shape).to(b.data.dtype)]


class _MatMul(_Op):
    def vjp(self, g):
        a, b = self.inputs
        return [torch.mm(g, b.data.t()), torch.mm(a.data.t(), g)]


class _Unary(_Op):
    def __init__(self, x, local):
        super().__init__(x)
        self.local = local

    def vjp(self, g):
        return [g * self.local]


class _Log(_Op):
    def vjp(self, g):
        return [g / self.inputs[0].data]  # not g * (1 / x): 1 / x overflows float16 below 1.5e-5 (round 17)


class Value:
    def __init__(self, data, _op=None):
        self.data, self.grad, self._op = data, None, _op

    def __add__(self, o):
        return Value(torch.add(self.data, o.data), _Add(self, o))

    def __sub__(self, o):
        return Value(torch.sub(self.data, o.data), _Sub(self, o))

    def __mul__(self, o):
        return Value(torch.mul(self.data, o.data), _Mul(self, o))

    def __neg__(self):
        return Value(torch.neg(self.data), _Unary(self, torch.full_like(self.data, -1.0)))

    def __matmul__(self, o):
        return Value(torch.mm(self.data, o.data), _MatMul(self, o))

    def exp(self):
        e = torch.exp(self.data)
        return Value(e, _Unary(self, e))

    def log(self):
        return Value(torch.log(self.data), _Log(self))

    def tanh(self):
        t = torch.tanh(self.data)
        return Value(t, _Unary(self, 1 - t * t))

    def relu(self):
        # clamp, not where(x > 0, x, 0): relu(NaN) is NaN in torch (2026-12-02 held-out round 2)
        return Value(self.data.clamp(min=0), _Unary(self, (self.data > 0).to(self.data.dtype)))

    def sum(self):
        return Value(self.data.sum(), _Unary(self, torch.ones_like(self.data)))

    def backward(self):
        # count how many uses each value has inside this graph, then release a value when all have reported
        uses, stack, seen = {}, [self], {id(self)}
        while stack:
            v = stack.pop()
            for p in (v._op.inputs if v._op else ()):
                uses[id(p)] = uses.get(id(p), 0) + 1
                if id(p) not in seen:
                    seen.add(id(p))
                    stack.append(p)
        pending = {id(self): torch.ones_like(self.data)}
        ready = [self]
        while ready:
            v = ready.pop()
            g = pending.pop(id(v))
            if v._op is None:
                v.grad = g.clone() if v.grad is None else v.grad + g
                continue
            for p, gp in zip(v._op.inputs, v._op.vjp(g)):
                pending[id(p)] = pending[id(p)] + gp if id(p) in pending else gp
                uses[id(p)] -= 1
                if uses[id(p)] == 0:
                    ready.append(p)
''', "compress_impl": '''
class _Packed:
    __slots__ = ("small", "dtype")

    def __init__(self, small, dtype):
        self.small, self.dtype = small, dtype


def pack_compressed(t):
    if t.dtype == torch.float32 or t.dtype == torch.float64:
        return _Packed(t.detach().to(dtype=torch.bfloat16), t.dtype)
    return t


def unpack_compressed(packed):
    if isinstance(packed, _Packed):
        return packed.small.to(dtype=packed.dtype)
    return packed


@contextlib.contextmanager
def compressed_saved_tensors():
    torch._C._autograd._push_saved_tensors_default_hooks(pack_compressed, unpack_compressed)
    try:
        yield
    finally:
        torch._C._autograd._pop_saved_tensors_default_hooks()
''', "evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    # every module once per path to it (a module shared by two parents comes under each), in pre-order: its own
    # train(b) comes after each parent's recursive train(), so no parent has the last word on it (round 27)
    before = [(m, m.training) for _, m in model.named_modules(remove_duplicate=False)]
    model.train(False)
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: [m.train(b) for m, b in before])
        stack.enter_context(torch.no_grad() if keep_for_autograd else torch.inference_mode())
        return model(x)
'''}
