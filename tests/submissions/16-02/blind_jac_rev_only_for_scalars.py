"""jacobian uses jacrev only for a scalar output (the loss case the notebook mentions) and jacfwd for every
other output: a wide Jacobian such as x (6,) -> f(x) (2,) is computed in forward mode, the costlier one."""
EXPECT = {"jacobian": "fail"}
CELLS = {
    "jacobian_impl": '''
def jacobian(f, x):
    if f(x).dim() == 0:
        return jacrev(f)(x)
    return jacfwd(f)(x)
''',
}
