"""torch.autograd.functional.hvp: the right numbers by double backward (reverse over reverse)."""
EXPECT = {"hvp": "fail"}
CELLS = {"hvp_impl": """
def hvp(f, x, v):
    return torch.autograd.functional.hvp(f, x, v)[1]
"""}
