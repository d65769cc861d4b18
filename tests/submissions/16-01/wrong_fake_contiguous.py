"""The fake kernel makes a contiguous tensor (x.new_empty(x.shape)): for a transposed input it promises other
strides than the real kernel delivers."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", ("    return torch.empty_like(x)\n", "    return x.new_empty(x.shape)\n"))}
