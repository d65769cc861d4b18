"""Returns the Jacobian flattened to (f(x).numel(), x.numel()) instead of f(x).shape + x.shape."""
EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": """
def jacobian(f, x):
    n_out = f(x).numel()
    jac = jacfwd(f)(x) if x.numel() < n_out else jacrev(f)(x)
    return jac.reshape(n_out, x.numel())
"""}
