"""Held-out round 13: grad(f) is built once per function and cached by f.__code__. Two functions from the
same code with different closures (lambdas made in a loop, a loss factory) share the entry, so the second
gets the first's Hessian-vector product. The text: "Return `H v` ... where `H` is the Hessian of `f` at
`x`" (for every f passed, not the first of its kind)."""
from course.grading.class_run.submissions import edited

EXPECT = {"hvp": "fail"}
CELLS = {"hvp_impl": edited(
    "16-02", "hvp_impl",
    ("    return jvp(grad(f), (x,), (v,))[1]\n",
     "    cache = globals().setdefault('_HVP_GRADS', {})\n"
     "    key = getattr(f, '__code__', f)\n"
     "    if key not in cache:\n"
     "        cache[key] = grad(f)\n"
     "    return jvp(cache[key], (x,), (v,))[1]\n"))}
