"""Chooses the mode by the number of dimensions (x.dim() < f(x).dim()) instead of the number of elements."""
EXPECT = {'jacobian': 'fail'}
CELLS = {
    'jacobian_impl': '''
def jacobian(f, x):
    if x.dim() < f(x).dim():
        return jacfwd(f)(x)
    return jacrev(f)(x)
''',
}
