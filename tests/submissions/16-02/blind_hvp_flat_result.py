"""hvp flattens x to handle every shape the same way and returns the flat product: shape (n,) instead of
x's shape for a multi-dimensional x (and (1,) for a 0-dim x)."""
EXPECT = {"hvp": "fail"}
CELLS = {
    "hvp_impl": '''
def hvp(f, x, v):
    shape = x.shape
    g = grad(lambda flat: f(flat.reshape(shape)))
    return jvp(g, (x.reshape(-1),), (v.reshape(-1),))[1]
''',
}
