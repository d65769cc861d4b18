"""Correct, written differently (held-out round 2): iterative DFS with explicit iterators for both graph
functions, an engine whose rules are closures and whose walk is an explicit stack, packed hooks as
(tensor, dtype-or-None) pairs, evaluate restoring each module's .training, and a checkpoint that records
the CPU and (for CUDA inputs) the device generator."""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'pass'}
CELLS = {"graph_impl": '''
def graph_nodes(t):
    if t.grad_fn is None:
        return []
    out, seen, stack = [], set(), [t.grad_fn]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        out.append(n)
        stack.extend(m for m, _ in n.next_functions if m is not None and m not in seen)
    return out


def topo_order(t):
    if t.grad_fn is None:
        return []
    post, seen = [], {t.grad_fn}
    stack = [(t.grad_fn, iter(t.grad_fn.next_functions))]
    while stack:
        n, it = stack[-1]
        for m, _ in it:
            if m is not None and m not in seen:
                seen.add(m)
                stack.append((m, iter(m.next_functions)))
                break
        else:
            stack.pop()
            post.append(n)
    return post[::-1]
''', "engine_impl": '''
class Value:
    """A tensor that records the operations that made it, for reverse-mode differentiation."""

    def __init__(self, data, _parents=(), _rule=None):
        self.data = data
        self.grad = None
        self._parents = tuple(_parents)
        self._rule = _rule

    @staticmethod
    def _unbroadcast(g, like):
        return g.sum_to_size(like.shape).to(like.dtype)

    def __add__(self, other):
        return Value(self.data + other.data, (self, other),
                     lambda g: (self._unbroadcast(g, self.data), self._unbroadcast(g, other.data)))

    def __sub__(self, other):
        return Value(self.data - other.data, (self, other),
                     lambda g: (self._unbroadcast(g, self.data), self._unbroadcast(-g, other.data)))

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other),
                     lambda g: (self._unbroadcast(g * other.data, self.data),
                                self._unbroadcast(g * self.data, other.data)))

    def __neg__(self):
        return Value(-self.data, (self,), lambda g: (-g,))

    def __matmul__(self, other):
        return Value(self.data @ other.data, (self, other),
                     lambda g: ((g @ other.data.transpose(0, 1)).to(self.data.dtype),
                                (self.data.transpose(0, 1) @ g).to(other.data.dtype)))

    def exp(self):
        out = self.data.exp()
        return Value(out, (self,), lambda g: ((g * out).to(self.data.dtype),))

    def log(self):
        return Value(self.data.log(), (self,), lambda g: ((g / self.data).to(self.data.dtype),))

    def tanh(self):
        out = self.data.tanh()
        return Value(out, (self,), lambda g: ((g * (1 - out * out)).to(self.data.dtype),))

    def relu(self):
        return Value(self.data.relu(), (self,), lambda g: ((g * (self.data > 0)).to(self.data.dtype),))

    def sum(self):
        return Value(self.data.sum(), (self,), lambda g: (g.expand(self.data.shape).to(self.data.dtype).clone(),))

    def backward(self):
        order, seen = [], set()
        stack = [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                order.append(v)
                continue
            if id(v) in seen:
                continue
            seen.add(id(v))
            stack.append((v, True))
            for p in v._parents:
                if id(p) not in seen:
                    stack.append((p, False))
        grads = {id(self): torch.ones_like(self.data)}
        for v in reversed(order):
            g = grads.pop(id(v), None)
            if g is None:
                continue
            if v._rule is None:
                v.grad = g.clone() if v.grad is None else v.grad + g
                continue
            for p, gp in zip(v._parents, v._rule(g)):
                grads[id(p)] = gp if id(p) not in grads else grads[id(p)] + gp
''', "compress_impl": '''
def pack_compressed(t):
    if t.dtype in (torch.float32, torch.float64):
        return (t.to(torch.bfloat16), t.dtype)
    return (t, None)


def unpack_compressed(packed):
    data, dtype = packed
    return data if dtype is None else data.to(dtype)


def compressed_saved_tensors():
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
''', "evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            return model(x)
    finally:
        for m, was in modes:
            m.training = was
''', "checkpoint_impl": '''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.block = block
        ctx.devices = [x.device] if x.device.type == "cuda" else []
        ctx.cpu_state = torch.get_rng_state()
        ctx.dev_states = [torch.cuda.get_rng_state(d) for d in ctx.devices]
        out = block(x)
        ctx.save_for_backward(x)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        block = ctx.block
        with torch.random.fork_rng(devices=ctx.devices):
            torch.set_rng_state(ctx.cpu_state)
            for d, s in zip(ctx.devices, ctx.dev_states):
                torch.cuda.set_rng_state(s, d)
            with torch.enable_grad():
                xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
                out = block(xd)
        needs = ctx.needs_input_grad[2:]
        params = list(block.parameters())
        wanted = ([xd] if xd.requires_grad else []) + [p for p, n in zip(params, needs) if n]
        got = iter(torch.autograd.grad(out, wanted, grad_out, allow_unused=True) if wanted else ())
        gx = next(got) if xd.requires_grad else None
        return (None, gx, *[next(got) if n else None for n in needs])


def checkpoint(block, x):
    """block(x), recomputed in backward instead of saved."""
    return Checkpoint.apply(block, x, *block.parameters())
'''}
