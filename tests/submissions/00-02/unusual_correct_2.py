"""Correct, written differently: a post-order for both walks (recursive until round 27, now with its frames
kept by hand on a stack of iterators, as a graph may be thousands of nodes deep), an engine that records a tape
of closures in creation order and replays it backwards, a dict as the packed form, evaluate with set_grad_enabled, and a
checkpoint that restores the RNG by hand (no fork_rng) and differentiates through detached parameter copies."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
def _post(t):
    out, seen = [], set()
    if t.grad_fn is None:
        return out
    seen.add(t.grad_fn)
    stack = [(t.grad_fn, iter(t.grad_fn.next_functions))]  # the recursion's frames, kept by hand (round 27)
    while stack:
        n, rest = stack[-1]
        for m, _ in rest:
            if m is not None and m not in seen:
                seen.add(m)
                stack.append((m, iter(m.next_functions)))
                break
        else:
            stack.pop()
            out.append(n)
    return out


def graph_nodes(t):
    return _post(t)


def topo_order(t):
    return list(reversed(_post(t)))
''', "engine_impl": '''
import itertools

_counter = itertools.count()


class Value:
    def __init__(self, data, parents=(), rules=()):
        self.data = data
        self.grad = None
        self.parents = parents
        self.rules = rules
        self.stamp = next(_counter)  # creation order is a topological order

    def _make(self, data, parents, rules):
        return Value(data, parents, rules)

    def __add__(self, o):
        return self._make(self.data + o.data, (self, o),
                          (lambda g: g.sum_to_size(self.data.shape).type(self.data.dtype),
                           lambda g: g.sum_to_size(o.data.shape).type(o.data.dtype)))

    def __sub__(self, o):
        return self + (-o)

    def __mul__(self, o):
        return self._make(self.data * o.data, (self, o),
                          (lambda g: (g * o.data).sum_to_size(self.data.shape).type(self.data.dtype),
                           lambda g: (g * self.data).sum_to_size(o.data.shape).type(o.data.dtype)))

    def __neg__(self):
        return self._make(-self.data, (self,), (lambda g: -g,))

    def __matmul__(self, o):
        return self._make(self.data @ o.data, (self, o), (lambda g: g @ o.data.mT, lambda g: self.data.mT @ g))

    def exp(self):
        return self._make(self.data.exp(), (self,), (lambda g: g * self.data.exp(),))

    def log(self):
        return self._make(self.data.log(), (self,), (lambda g: g / self.data,))

    def tanh(self):
        return self._make(self.data.tanh(), (self,), (lambda g: g / self.data.cosh() ** 2,))

    def relu(self):
        return self._make(torch.relu(self.data), (self,), (lambda g: torch.where(self.data > 0, g, 0.0),))

    def sum(self):
        return self._make(self.data.sum(), (self,), (lambda g: g.expand_as(self.data).clone(),))

    def backward(self):
        found, todo = {}, [self]
        while todo:
            v = todo.pop()
            if id(v) not in found:
                found[id(v)] = v
                todo.extend(v.parents)
        grads = {id(self): torch.ones_like(self.data)}
        for v in sorted(found.values(), key=lambda v: -v.stamp):
            g = grads.get(id(v))
            if g is None:
                continue
            if not v.parents:
                v.grad = g.clone() if v.grad is None else v.grad + g
            for p, rule in zip(v.parents, v.rules):
                grads[id(p)] = grads.get(id(p), 0) + rule(g)
''', "compress_impl": '''
def pack_compressed(t):
    if t.dtype not in (torch.float32, torch.float64):
        return {"kept": t}
    return {"bf16": t.bfloat16(), "dtype": t.dtype}


def unpack_compressed(packed):
    if "kept" in packed:
        return packed["kept"]
    return packed["bf16"].to(packed["dtype"])


class compressed_saved_tensors(torch.autograd.graph.saved_tensors_hooks):
    def __init__(self):
        super().__init__(pack_compressed, unpack_compressed)
''', "evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    flags = {name: m.training for name, m in model.named_modules()}
    model.eval()
    try:
        if keep_for_autograd:
            with torch.set_grad_enabled(False):
                out = model(x)
        else:
            with torch.inference_mode():
                out = model(x)
    finally:
        for name, m in model.named_modules():
            m.training = flags[name]
    return out
''', "checkpoint_impl": '''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.state_before = torch.random.get_rng_state()
        ctx.block = block
        ctx.save_for_backward(x)
        with torch.no_grad():
            y = block(x)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        x = ctx.saved_tensors[0]
        now = torch.random.get_rng_state()
        torch.random.set_rng_state(ctx.state_before)
        try:
            with torch.enable_grad():
                xd = x.detach().requires_grad_(ctx.needs_input_grad[1])  # int ids cannot require grad
                y = ctx.block(xd)
                y.backward(grad_out, inputs=([xd] if xd.requires_grad else [])
                           + [p for p in ctx.block.parameters() if p.requires_grad])
        finally:
            torch.random.set_rng_state(now)
        out = [None, xd.grad]
        for p in ctx.block.parameters():
            g = p.grad
            p.grad = None
            out.append(g)
        return tuple(out)


def checkpoint(block, x):
    return Checkpoint.apply(block, x, *block.parameters())
'''}
