"""Held-out round 17: the engine's walk is the student's, but every rule is torch's own: each operation asks
`torch.func.vjp` for its vector-Jacobian product instead of writing it. torch.func's transforms run on the
autograd engine (a graph is recorded and differentiated inside every vjp), and the values are torch's, so all
numbers agree. The text: "Write the engine yourself: it must not use `torch.autograd` and must work under
`torch.no_grad()`"."""
from course.grading.class_run.submissions import edited

_OPS = [
    ("        return Value(a + b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(g, b)))\n",
     "torch.add"),
    ("        return Value(a - b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(-g, b)))\n",
     "torch.sub"),
    ("        return Value(a * b, (self, other),\n"
     "                     lambda g: (self._unbroadcast(g * b, a), self._unbroadcast(g * a, b)))\n",
     "torch.mul"),
    ("        return Value(a @ b, (self, other), lambda g: (g @ b.T, a.T @ g))\n", "torch.matmul"),
]

_EDITS = [(old, "        return self._vjp2(%s, other)\n" % fn) for old, fn in _OPS] + [
    ("        return Value(-self.data, (self,), lambda g: (-g,))\n", "        return self._vjp1(torch.neg)\n"),
    ("        e = self.data.exp()\n"
     "        return Value(e, (self,), lambda g: (g * e,))\n", "        return self._vjp1(torch.exp)\n"),
    ("        a = self.data\n"
     "        return Value(a.log(), (self,), lambda g: (g / a,))\n", "        return self._vjp1(torch.log)\n"),
    ("        t = self.data.tanh()\n"
     "        return Value(t, (self,), lambda g: (g * (1 - t * t),))\n", "        return self._vjp1(torch.tanh)\n"),
    ("        a = self.data\n"
     "        return Value(a.clamp(min=0), (self,), lambda g: (g * (a > 0).to(g.dtype),))\n",
     "        return self._vjp1(torch.relu)\n"),
    ("        a = self.data\n"
     "        return Value(a.sum(), (self,), lambda g: (g.expand(a.shape),))\n", "        return self._vjp1(torch.sum)\n"),
    ("    @staticmethod\n"
     "    def _unbroadcast(g, like):\n",
     "    def _vjp1(self, fn):\n"
     "        out, vjp = torch.func.vjp(fn, self.data)\n"
     "        return Value(out, (self,), lambda g: vjp(g))\n"
     "\n"
     "    def _vjp2(self, fn, other):\n"
     "        out, vjp = torch.func.vjp(fn, self.data, other.data)\n"
     "        return Value(out, (self, other), lambda g: vjp(g))\n"
     "\n"
     "    @staticmethod\n"
     "    def _unbroadcast(g, like):\n"),
]

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited("00-02", "engine_impl", *_EDITS)}
