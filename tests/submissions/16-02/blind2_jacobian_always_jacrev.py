"""Always jacrev (the usual case of a loss), even for tall Jacobians where the text asks for jacfwd."""
EXPECT = {'jacobian': 'fail'}
CELLS = {
    'jacobian_impl': '''
def jacobian(f, x):
    return jacrev(f)(x)
''',
}
