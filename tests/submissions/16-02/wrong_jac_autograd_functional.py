"""torch.autograd.functional.jacobian: the right numbers, always by reverse mode."""
EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": """
def jacobian(f, x):
    return torch.autograd.functional.jacobian(f, x)
"""}
