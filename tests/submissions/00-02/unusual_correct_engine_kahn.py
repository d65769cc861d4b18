"""Correct, written differently (blind batch, issue #19; engine only): backward counts the pending contributions
of every Value and runs a Value once its count reaches zero (Kahn's order, no DFS list), sub is add of a negation,
unbroadcast is done by hand, and each leaf gradient is built fresh as zeros_like(data) + g (its own memory, the
leaf's dtype).
"""
EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}

CELLS = {"engine_impl": '''
class Value:
    """Values with a dependency-counting backward (no recursion, no explicit topological list)."""

    def __init__(self, data, _parents=(), _rule=None):
        self.data = data
        self.grad = None
        self._parents = list(_parents)
        self._rule = _rule

    @staticmethod
    def _unbroadcast(g, like):
        shape = tuple(like.shape)
        while g.dim() > len(shape):
            g = g.sum(0)
        for i, n in enumerate(shape):
            if n == 1 and g.shape[i] != 1:
                g = g.sum(i, keepdim=True)
        return g.to(like.dtype)

    def _make(self, data, parents, rule):
        return Value(data, parents, rule)

    def __add__(self, other):
        a, b = self.data, other.data
        return self._make(torch.add(a, b), [self, other],
                          lambda g: [Value._unbroadcast(g, a), Value._unbroadcast(g, b)])

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, other):
        a, b = self.data, other.data
        return self._make(torch.mul(a, b), [self, other],
                          lambda g: [Value._unbroadcast(torch.mul(g, b), a), Value._unbroadcast(torch.mul(g, a), b)])

    def __neg__(self):
        return self._make(torch.neg(self.data), [self], lambda g: [torch.neg(g)])

    def __matmul__(self, other):
        a, b = self.data, other.data
        return self._make(torch.mm(a, b), [self, other], lambda g: [torch.mm(g, b.t()), torch.mm(a.t(), g)])

    def exp(self):
        out = torch.exp(self.data)
        return self._make(out, [self], lambda g: [g * out])

    def log(self):
        a = self.data
        return self._make(torch.log(a), [self], lambda g: [g / a])  # 1 / a overflows float16 (round 17)

    def tanh(self):
        out = torch.tanh(self.data)
        return self._make(out, [self], lambda g: [g - g * out.square()])

    def relu(self):
        a = self.data
        return self._make(torch.relu(a), [self], lambda g: [torch.where(a > 0, g, torch.zeros_like(g))])

    def sum(self):
        a = self.data
        return self._make(torch.sum(a), [self], lambda g: [torch.zeros_like(a) + g])

    def backward(self):
        # count, for every reachable Value, how many edges from reachable Values lead to it
        pending, stack, seen = {}, [self], {id(self): self}
        while stack:
            v = stack.pop()
            for p in v._parents:
                pending[id(p)] = pending.get(id(p), 0) + 1
                if id(p) not in seen:
                    seen[id(p)] = p
                    stack.append(p)
        acc = {id(self): torch.ones_like(self.data)}
        ready = [self]
        while ready:
            v = ready.pop()
            g = acc.pop(id(v))
            if not v._parents:
                g = torch.zeros_like(v.data) + g.to(v.data.dtype)
                v.grad = g if v.grad is None else v.grad + g
                continue
            for p, gp in zip(v._parents, v._rule(g)):
                acc[id(p)] = gp if id(p) not in acc else acc[id(p)] + gp
                pending[id(p)] -= 1
                if pending[id(p)] == 0:
                    ready.append(p)
'''}
