"""Calls torch.func.jvp instead of using dual numbers from torch.autograd.forward_ad."""
EXPECT = {"dual_jvp": "fail"}
CELLS = {"dual_jvp_impl": """
def dual_jvp(f, primals, tangents):
    return jvp(f, tuple(primals), tuple(tangents))
"""}
