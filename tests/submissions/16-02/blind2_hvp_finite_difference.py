"""Central finite difference of the gradient along v (eps = 1e-6): close in float64 on smooth f, but not forward
mode and inexact (float32, curved f)."""
EXPECT = {'hvp': 'fail'}
CELLS = {
    'hvp_impl': '''
def hvp(f, x, v):
    eps = 1e-6
    g = grad(f)
    return (g(x + eps * v) - g(x - eps * v)) / (2 * eps)
''',
}
