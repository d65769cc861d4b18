"""Records the range without detaching: min_val and max_val carry the autograd graph of the observed tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", ("y = x.detach().to(torch.float32)", "y = x.to(torch.float32)"))}
