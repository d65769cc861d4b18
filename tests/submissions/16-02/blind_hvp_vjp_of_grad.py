"""hvp with vjp in place of jvp: vjp(grad(f), x)[1](v) is v^T H, equal to H v since H is symmetric, but it is
reverse over reverse (a backward pass through the backward pass), not the forward-mode derivative the text
asks for."""
EXPECT = {"hvp": "fail"}
CELLS = {
    "hvp_impl": '''
def hvp(f, x, v):
    _, pullback = vjp(grad(f), x)
    return pullback(v)[0]
''',
}
