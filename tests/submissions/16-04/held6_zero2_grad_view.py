"""Wrong: "params ... (0-d, empty and non-contiguous ones included) ...; each has .grad set to this rank's
own gradient." This zero2_step flattens each gradient with p.grad.view(-1), which raises for the
non-contiguous gradient that autograd gives a non-contiguous (for instance transposed) parameter."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edited("16-04", "zero2_impl",
                              ("flatten_shard([p.grad for p in params], world, r)",
                               "flatten_shard([p.grad.view(-1) for p in params], world, r)"))}
