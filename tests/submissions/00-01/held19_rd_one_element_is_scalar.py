"""Round 19: a tensor with one element (shape (1,), (1, 1)) is put in the 0-dim tier, as if it were a scalar
(the text: the tiers are tensors with at least one dimension, then 0-dim tensors)."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''            tiers[2 if v.dim() else 1].append(v.dtype)''',
    '''            tiers[1 if v.numel() == 1 else 2].append(v.dtype)'''))}
