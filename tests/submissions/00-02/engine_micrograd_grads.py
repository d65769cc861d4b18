"""micrograd's design: every Value keeps a .grad that backward adds into, intermediates included, and nothing
resets them; a second backward() starts from the stale gradients of the intermediates."""
EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": '''
class Value:
    def __init__(self, data, _parents=(), _rule=None):
        self.data, self.grad, self._parents, self._rule = data, None, _parents, _rule

    def _add_grad(self, g):
        self.grad = g if self.grad is None else self.grad + g

    def _wrap(self, data, parents, rule):
        return Value(data, parents, rule)

    def __add__(self, o):
        return Value(self.data + o.data, (self, o), lambda g: (g.sum_to_size(self.data.shape), g.sum_to_size(o.data.shape)))

    def __sub__(self, o):
        return Value(self.data - o.data, (self, o), lambda g: (g.sum_to_size(self.data.shape), (-g).sum_to_size(o.data.shape)))

    def __mul__(self, o):
        return Value(self.data * o.data, (self, o),
                     lambda g: ((g * o.data).sum_to_size(self.data.shape), (g * self.data).sum_to_size(o.data.shape)))

    def __neg__(self):
        return Value(-self.data, (self,), lambda g: (-g,))

    def __matmul__(self, o):
        return Value(self.data @ o.data, (self, o), lambda g: (g @ o.data.T, self.data.T @ g))

    def exp(self):
        e = self.data.exp()
        return Value(e, (self,), lambda g: (g * e,))

    def log(self):
        return Value(self.data.log(), (self,), lambda g: (g / self.data,))

    def tanh(self):
        t = self.data.tanh()
        return Value(t, (self,), lambda g: (g * (1 - t ** 2),))

    def relu(self):
        return Value(self.data.relu(), (self,), lambda g: (g * (self.data > 0),))

    def sum(self):
        return Value(self.data.sum(), (self,), lambda g: (g.expand(self.data.shape),))

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if id(v) not in seen:
                seen.add(id(v))
                for p in v._parents:
                    build(p)
                topo.append(v)
        build(self)
        self.grad = torch.ones_like(self.data)
        for v in reversed(topo):
            if v._parents and v.grad is not None:
                for p, gp in zip(v._parents, v._rule(v.grad)):
                    p._add_grad(gp)
'''}
