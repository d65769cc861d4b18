"""Two realistic mistakes and two right answers: the engine never sums broadcast gradients back to the leaf's shape,
and evaluate ends with model.train(), which puts submodules that were in eval mode into training mode."""
EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {"engine_impl": '''
class Value:
    def __init__(self, data, _parents=(), _rule=None):
        self.data, self.grad, self._parents, self._rule = data, None, _parents, _rule

    def __add__(self, o):
        return Value(self.data + o.data, (self, o), lambda g: (g, g))

    def __sub__(self, o):
        return Value(self.data - o.data, (self, o), lambda g: (g, -g))

    def __mul__(self, o):
        return Value(self.data * o.data, (self, o), lambda g: (g * o.data, g * self.data))

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
        return Value(self.data.sum(), (self,), lambda g: (g * torch.ones_like(self.data),))

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for p in v._parents:
                    visit(p)
                order.append(v)
        visit(self)
        grads = {id(self): torch.ones_like(self.data)}
        for v in reversed(order):
            g = grads.get(id(v))
            if g is None:
                continue
            if not v._parents:
                v.grad = g if v.grad is None else v.grad + g
            else:
                for p, gp in zip(v._parents, v._rule(g)):
                    grads[id(p)] = grads[id(p)] + gp if id(p) in grads else gp
''', "evaluate_impl": '''
def evaluate(model, x, keep_for_autograd=False):
    model.eval()
    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            return model(x)
    finally:
        model.train()
'''}
