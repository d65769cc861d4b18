"""Two-stage pipeline whose rank 1 receives the activations into torch.empty(rows, width): the default dtype
(float32) and the default device, whatever the stages'."""
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)", "torch.empty(len(chunks[m]), width)"))}
