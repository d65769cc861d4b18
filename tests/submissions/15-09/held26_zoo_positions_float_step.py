"""fixed_add_positions builds the positions with a floating-point step, torch.arange(0, 1, 1 / seq, device=x.device,
dtype=x.dtype) (guarded with max(seq, 1) so that an empty sequence still works). arange's length is
ceil((end - start) / step) computed in double, and 1 / (1 / 49) rounds to 49.00000000000001: for seq = 49 (and 98,
103, 107, 196, ... : 328 lengths below 5000) there are seq + 1 positions, and x + pos raises "The size of tensor a
(49) must match the size of tensor b (50)". Breaks "fixed_add_positions(x) returns x + k / seq at position k ... for
any device" for those sequence lengths (the values are right, to an ulp, for the lengths where the count comes out
right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    """    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]
""",
    """    step = 1 / max(x.shape[1], 1)
    pos = torch.arange(0, 1, step, device=x.device, dtype=x.dtype).unsqueeze(1)
"""))}
