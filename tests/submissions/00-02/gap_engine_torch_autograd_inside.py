"""Known-wrong Value (gap round): keeps a shadow tensor per Value, records every operation with torch's own
autograd inside torch.enable_grad() (so it also runs under torch.no_grad()), and gets the leaf gradients from
torch.autograd.grad: values and gradients are right, but the text says the engine must not use torch.autograd."""
CELLS = {"engine_impl": '''
class Value:
    def __init__(self, data, _src=None, _leaves=()):
        self.data = data
        self.grad = None
        if _src is None:
            with torch.enable_grad():
                _src = data.detach().clone().requires_grad_(True)
            _leaves = (self,)
        self._t, self._leaves = _src, _leaves

    def _make(self, t, *others):
        leaves = {id(v): v for o in (self, *others) for v in o._leaves}
        return Value(t.detach(), t, tuple(leaves.values()))

    def _op(self, fn, *others):
        with torch.enable_grad():
            return self._make(fn(self._t, *[o._t for o in others]), *others)

    def __add__(self, other):
        return self._op(lambda a, b: a + b, other)

    def __sub__(self, other):
        return self._op(lambda a, b: a - b, other)

    def __mul__(self, other):
        return self._op(lambda a, b: a * b, other)

    def __neg__(self):
        return self._op(lambda a: -a)

    def __matmul__(self, other):
        return self._op(lambda a, b: a @ b, other)

    def exp(self):
        return self._op(torch.exp)

    def log(self):
        return self._op(torch.log)

    def tanh(self):
        return self._op(torch.tanh)

    def relu(self):
        return self._op(torch.relu)

    def sum(self):
        return self._op(torch.sum)

    def backward(self):
        with torch.enable_grad():
            gs = torch.autograd.grad(self._t, [v._t for v in self._leaves], retain_graph=True, allow_unused=True)
        for v, g in zip(self._leaves, gs):
            if g is None:
                continue
            g = g.detach().to(v.data.dtype)
            v.grad = g.clone() if v.grad is None else v.grad + g
'''}
EXPECT = {"engine": "fail"}
