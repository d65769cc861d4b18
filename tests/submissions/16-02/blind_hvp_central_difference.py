"""hvp takes the formula d/d eps grad f(x + eps v) literally and differentiates the gradient by a central
difference with eps = 1e-5: close in float64 for smooth f, but not forward mode and not the exact product
(wrong in float32, wrong for f with large third derivatives)."""
EXPECT = {"hvp": "fail"}
CELLS = {
    "hvp_impl": '''
def hvp(f, x, v):
    eps = 1e-5
    g = grad(f)
    return (g(x + eps * v) - g(x - eps * v)) / (2 * eps)
''',
}
