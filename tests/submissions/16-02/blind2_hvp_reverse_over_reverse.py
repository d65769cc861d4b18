"""Reverse-over-reverse: grad of <grad f(x), v>. Right numbers, but the text asks for forward mode over the
reverse pass (jvp of grad(f))."""
EXPECT = {'hvp': 'fail'}
CELLS = {
    'hvp_impl': '''
def hvp(f, x, v):
    return grad(lambda y: (grad(f)(y) * v).sum())(x)
''',
}
