"""Round 29: jacobian remembers its choice of mode per (f.__code__, x.shape) in a module-level dict, so that a
second call with "the same" function and an input of the same shape skips the extra call of f. Functions made
by one factory share their code object: after jacobian(make(1), x) with make(m) = lambda x: x.repeat(m) and x of
shape (3,) (3 outputs, a tie: jacrev), jacobian(make(5), x) (15 outputs > 3 inputs: jacfwd) reuses the cached
choice and runs jacrev. The values stay right; the mode is wrong.
The text: "Use forward mode (`jacfwd`) when `x` has fewer elements than `f(x)` and reverse mode (`jacrev`)
otherwise"; wrong input: the second of two closures of one code object with the same x shape and a different
output size."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "def jacobian(f, x):\n",
    "_FORWARD = {}\n\n\ndef jacobian(f, x):\n"), (
    "    with torch.no_grad():\n"
    "        n_out = f(x).numel()\n"
    "    if x.numel() < n_out:\n",
    "    key = (getattr(f, '__code__', f), tuple(x.shape))\n"
    "    if key not in _FORWARD:\n"
    "        with torch.no_grad():\n"
    "            _FORWARD[key] = x.numel() < f(x).numel()\n"
    "    if _FORWARD[key]:\n"))}
