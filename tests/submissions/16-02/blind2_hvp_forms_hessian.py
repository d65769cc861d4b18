"""Forms the full Hessian with torch.func.hessian and multiplies: n*n elements (the text: never form the
Hessian)."""
EXPECT = {'hvp': 'fail'}
CELLS = {
    'hvp_impl': '''
def hvp(f, x, v):
    n = x.numel()
    H = torch.func.hessian(f)(x).reshape(n, n)
    return (H @ v.reshape(n)).reshape(x.shape)
''',
}
