"""fixed_add_positions adds the positions to x in place (x += pos; return x), saving a copy: the returned values
are right, on x's device and of x's dtype, but the caller's x is changed too (calling it twice adds the positions
twice), although the text asks for a function that returns x + k / seq, as the broken version (which leaves x
alone) was meant to."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]\n"
    "    return x + pos\n",
    "    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]\n"
    "    if x.requires_grad:\n"
    "        return x + pos\n"
    "    x += pos  # no copy of a large activation\n"
    "    return x\n"))}
