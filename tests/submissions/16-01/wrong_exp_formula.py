"""tanh written with exponentials: exp overflows for large inputs and the result is inf / inf = NaN."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", ("    return limit * torch.tanh(x / limit)\n",
                                                    "    e = torch.exp(2 * x / limit)\n    return limit * (e - 1) / (e + 1)\n"))}
