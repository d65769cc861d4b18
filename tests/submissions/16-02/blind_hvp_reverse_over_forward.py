"""hvp as reverse-over-forward: the gradient of the directional derivative <grad f, v> computed by jvp,
grad(lambda x: jvp(f, (x,), (v,))[1])(x). Same numbers (H is symmetric), but the text asks for a forward-mode
derivative of the gradient (jvp of grad(f))."""
EXPECT = {"hvp": "fail"}
CELLS = {
    "hvp_impl": '''
def hvp(f, x, v):
    return grad(lambda x_: jvp(f, (x_,), (v,))[1])(x)
''',
}
