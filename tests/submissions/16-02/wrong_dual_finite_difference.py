"""A finite difference along the tangents instead of dual numbers: f runs twice and the result is only
approximately J t."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {"dual_jvp_impl": """
def dual_jvp(f, primals, tangents):
    eps = 1e-6
    out = f(*primals)
    moved = f(*[p + eps * t for p, t in zip(primals, tangents)])
    return out, (moved - out) / eps
"""}
