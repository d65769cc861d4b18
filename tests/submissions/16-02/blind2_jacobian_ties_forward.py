"""Uses jacfwd when x has at most as many elements as f(x) (<=): ties go to forward mode, the text sends them to
jacrev."""
EXPECT = {'jacobian': 'fail'}
CELLS = {
    'jacobian_impl': '''
def jacobian(f, x):
    m = f(x).numel()
    if x.numel() <= m:
        return jacfwd(f)(x)
    return jacrev(f)(x)
''',
}
