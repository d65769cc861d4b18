"""jacobian compares the shapes themselves, x.shape < f(x).shape: a torch.Size compares as a tuple,
lexicographically, so x (5,) and f(x) (2, 3) (5 < 6 elements: forward mode) goes to jacrev."""
EXPECT = {"jacobian": "fail"}
CELLS = {
    "jacobian_impl": '''
def jacobian(f, x):
    if x.shape < f(x).shape:
        return jacfwd(f)(x)
    return jacrev(f)(x)
''',
}
