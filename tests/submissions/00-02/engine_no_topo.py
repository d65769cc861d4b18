"""Backward without a topological order: each Value pushes its gradient to its parents as soon as it gets some, and
the parents pass on everything they hold each time, so a value reached by two paths is counted twice."""
EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": '''
def _fit(g, like):
    return g.sum_to_size(like.shape)


class Value:
    def __init__(self, data, _parents=(), _rule=None):
        self.data, self.grad, self._parents, self._rule = data, None, _parents, _rule
        self._g = None

    def __add__(self, o):
        return Value(self.data + o.data, (self, o), lambda g: (_fit(g, self.data), _fit(g, o.data)))

    def __sub__(self, o):
        return Value(self.data - o.data, (self, o), lambda g: (_fit(g, self.data), _fit(-g, o.data)))

    def __mul__(self, o):
        return Value(self.data * o.data, (self, o), lambda g: (_fit(g * o.data, self.data), _fit(g * self.data, o.data)))

    def __neg__(self):
        return Value(-self.data, (self,), lambda g: (-g,))

    def __matmul__(self, o):
        return Value(self.data @ o.data, (self, o), lambda g: (g @ o.data.T, self.data.T @ g))

    def exp(self):
        return Value(self.data.exp(), (self,), lambda g: (g * self.data.exp(),))

    def log(self):
        return Value(self.data.log(), (self,), lambda g: (g / self.data,))

    def tanh(self):
        return Value(self.data.tanh(), (self,), lambda g: (g * (1 - self.data.tanh() ** 2),))

    def relu(self):
        return Value(self.data.relu(), (self,), lambda g: (g * (self.data > 0),))

    def sum(self):
        return Value(self.data.sum(), (self,), lambda g: (g.expand(self.data.shape),))

    def _receive(self, g):
        self._g = g if self._g is None else self._g + g
        if not self._parents:
            return
        for p, gp in zip(self._parents, self._rule(self._g)):
            p._receive(gp)

    def backward(self):
        leaves, todo, seen = [], [self], set()
        while todo:
            v = todo.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            v._g = None
            todo.extend(v._parents)
            if not v._parents:
                leaves.append(v)
        self._receive(torch.ones_like(self.data))
        for leaf in leaves:
            if leaf._g is not None:
                leaf.grad = leaf._g if leaf.grad is None else leaf.grad + leaf._g
'''}
