"""Round 24: jacobian remembers the output size of each f it has probed (a dict keyed by f), to spare the extra
call of f on later calls. The same f called on an x of another size reuses the old size: for
f(x) = torch.outer(x, x), x of 1 element first (a tie: jacrev, right), then x of 3 elements (9 outputs, tall)
still takes jacrev: the values are right but the mode is wrong. The text: "Use forward mode (jacfwd) when x has
fewer elements than f(x) and reverse mode (jacrev) otherwise"; wrong input: one f, two calls with x of 1 then 3
elements."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    with torch.no_grad():\n        n_out = f(x).numel()\n",
    "    if f not in _OUT_SIZES:\n"
    "        with torch.no_grad():\n            _OUT_SIZES[f] = f(x).numel()\n"
    "    n_out = _OUT_SIZES[f]\n"), (
    "def jacobian(f, x):", "_OUT_SIZES = {}\n\n\ndef jacobian(f, x):"))}
