"""Wrong (held-out round 2): backward adds gradient into a leaf only when it reaches it as an operand, so
Value(t).sum() works but a 0-dim leaf's own backward() leaves its .grad None (d(out)/d(out) = 1 is lost)."""
EXPECT = {'engine': 'fail'}
CELLS = {"engine_impl": '''
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
                continue
            for p, gp in zip(v._parents, v._rule(g)):
                if p._rule is None:
                    p.grad = gp.clone() if p.grad is None else p.grad + gp
                else:
                    grads[id(p)] = gp if id(p) not in grads else grads[id(p)] + gp
'''}
