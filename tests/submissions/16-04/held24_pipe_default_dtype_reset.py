"""Known-wrong pipeline_grads (held-out round 24): rank 1 makes its receive buffer in the parameters' dtype by
switching the default dtype (torch.set_default_dtype(dtype)) and then "restores" it to torch.float32, not to what
it was. The text says "return None, leaving the grad mode and the process's other global settings as you found
them". Input on which it goes wrong: a caller whose default dtype is float64 (torch.set_default_dtype(torch.float64)
before the call): after the call rank 1's process has float32 as its default dtype."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)\n",
    "            torch.set_default_dtype(dtype)  # the buffer in the parameters' dtype\n"
    "            h = torch.empty((len(chunks[m]), width), device=chunks[m].device)\n"
    "            torch.set_default_dtype(torch.float32)  # back to PyTorch's default\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
