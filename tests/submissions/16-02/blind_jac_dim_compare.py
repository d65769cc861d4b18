"""jacobian compares the number of dimensions, x.dim() < f(x).dim(), instead of the number of elements: x (6,)
and f(x) (2, 2) (6 > 4 elements: reverse mode) goes to jacfwd; x (2, 3) -> f(x) (7,) goes to jacrev."""
EXPECT = {"jacobian": "fail"}
CELLS = {
    "jacobian_impl": '''
def jacobian(f, x):
    if x.dim() < f(x).dim():
        return jacfwd(f)(x)
    return jacrev(f)(x)
''',
}
