"""Held-out round 17, correct in an unusual way: Value's backward is Kahn's algorithm (each Value's uses inside
the graph are counted first, and a Value runs its rule once its last use has sent its gradient), rules call
torch's functions (`torch.add`, `torch.relu`, `torch.where`) rather than methods, `a - b` is built as
`a + (-b)` (an extra node; IEEE subtraction is exactly that addition, so the values agree bit for bit), and
broadcasting is undone by explicit sums over the leading and size-1 dimensions instead of `sum_to_size`."""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": '''class Value:
    """A tensor that records the operations that made it, for reverse-mode differentiation."""

    def __init__(self, data, _parents=(), _rule=None):
        self.data, self.grad = data, None
        self._parents, self._rule = tuple(_parents), _rule

    @staticmethod
    def _unbroadcast(g, like):
        extra = g.dim() - like.dim()
        if extra:
            g = g.sum(dim=tuple(range(extra)))
        dims = tuple(i for i, n in enumerate(like.shape) if n == 1 and g.shape[i] != 1)
        if dims:
            g = g.sum(dim=dims, keepdim=True)
        return g.to(like.dtype)

    def __add__(self, other):
        a, b = self.data, other.data
        return Value(torch.add(a, b), (self, other),
                     lambda g: (Value._unbroadcast(g, a), Value._unbroadcast(g, b)))

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, other):
        a, b = self.data, other.data
        return Value(torch.mul(a, b), (self, other),
                     lambda g: (Value._unbroadcast(torch.mul(g, b), a), Value._unbroadcast(torch.mul(g, a), b)))

    def __neg__(self):
        return Value(torch.neg(self.data), (self,), lambda g: (torch.neg(g),))

    def __matmul__(self, other):
        a, b = self.data, other.data
        return Value(torch.matmul(a, b), (self, other),
                     lambda g: (torch.matmul(g, b.transpose(0, 1)), torch.matmul(a.transpose(0, 1), g)))

    def exp(self):
        e = torch.exp(self.data)
        return Value(e, (self,), lambda g: (torch.mul(g, e),))

    def log(self):
        a = self.data
        return Value(torch.log(a), (self,), lambda g: (torch.div(g, a),))

    def tanh(self):
        t = torch.tanh(self.data)
        return Value(t, (self,), lambda g: (g * (1 - t * t),))

    def relu(self):
        a = self.data
        return Value(torch.relu(a), (self,), lambda g: (torch.where(a > 0, g, torch.zeros_like(g)),))

    def sum(self):
        a = self.data
        return Value(torch.sum(a), (self,), lambda g: (g.broadcast_to(a.shape),))

    def backward(self):
        uses, seen, stack = {}, {id(self)}, [self]
        while stack:
            v = stack.pop()
            for p in v._parents:
                uses[id(p)] = uses.get(id(p), 0) + 1
                if id(p) not in seen:
                    seen.add(id(p))
                    stack.append(p)
        pending = {id(self): torch.ones_like(self.data)}
        ready = [self]
        while ready:
            v = ready.pop()
            g = pending.pop(id(v))
            if not v._parents:
                v.grad = g.clone() if v.grad is None else v.grad + g
                continue
            for p, gp in zip(v._parents, v._rule(g)):
                k = id(p)
                pending[k] = gp if k not in pending else pending[k] + gp
                uses[k] -= 1
                if uses[k] == 0:
                    ready.append(p)
'''}
