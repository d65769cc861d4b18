'''Round 26s (found by the new check, not counted): the hvp cell unusual_correct.py had until round 26. Forward
over reverse with dual numbers around torch.autograd.grad: the gradient of f at a dual x carrying v, its tangent
returned with .clone(). Where the gradient does not depend on x (f linear, H = 0) it carries no tangent:
unpack_dual gives None and .clone() raises AttributeError. The text: "Return `H v` with `x`'s shape and device,
where `H` is the Hessian of `f` at `x`"; wrong input: f(x) = <c, A x> (H v is zeros of x's shape).'''
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {
    "hvp_impl": """
def hvp(f, x, v):
    with fwAD.dual_level():
        xd = fwAD.make_dual(x.detach().clone().requires_grad_(True), v)
        (g,) = torch.autograd.grad(f(xd), xd)
        return fwAD.unpack_dual(g).tangent.clone()
""",
}
