"""Wrong: "tensors is a non-empty list of tensors ... of any shapes (0-d and empty tensors included)" with
"k = ceil(n / world)". Cutting the padded buffer with padded.split(k)[rank] is right whenever n > 0, but
when every tensor is empty, n = 0 and k = 0: split gives one empty piece, so ranks 1 and up raise
IndexError instead of returning their empty piece."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edited("16-04", "shard_impl",
                              ("return padded[rank * k:(rank + 1) * k].clone()",
                               "return padded.split(k)[rank].clone()"))}
