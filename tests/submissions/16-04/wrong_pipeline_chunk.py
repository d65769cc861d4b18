"""Two-stage pipeline that cuts the batch with torch.chunk instead of torch.tensor_split (10 rows in 4: 3, 3, 3, 1;
6 rows in 4 would even give 3 pieces)."""
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", ("torch.tensor_split(data, M)", "data.chunk(M)"))}
