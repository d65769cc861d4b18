"""Reverse over reverse: the gradient of <grad f(x), v>; the right numbers, but no forward mode."""
EXPECT = {"hvp": "fail"}
CELLS = {"hvp_impl": """
def hvp(f, x, v):
    return grad(lambda y: (grad(f)(y) * v).sum())(x)
"""}
