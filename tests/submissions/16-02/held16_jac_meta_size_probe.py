"""Round 16: jacobian learns the size of f's output by running f on x moved to the meta device ("no compute").
Any f that mixes x with a tensor it captured (a weight W on x's device) raises there, although f(x) works
("you may call f once more to learn the size of its output": on x, not on another device)."""
from course.grading.class_run.submissions import edited

EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    """    with torch.no_grad():
        n_out = f(x).numel()""",
    """    n_out = f(x.detach().to("meta")).numel()"""))}
