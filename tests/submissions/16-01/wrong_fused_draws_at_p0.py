"""Draws the mask even when p == 0: the values are right, the generator moves on."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    """    if p == 0:
        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)
    else:
        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
        keep = u >= p
""", """    u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
    keep = u >= p
"""))}
