"""Round 28: result_dtype forgets the `complex128` upgrade (a float64 meeting a complex64 gives complex128)
when both operands sit in the 0-dim tier; it keeps it for tensors with dimensions. Breaks rule 1 ("a float
with a complex gives the complex, made `complex128` if the float was `float64`", within any tier): wrong for
a 0-dim float64 tensor with a 0-dim complex64 tensor (gives complex64, PyTorch gives complex128)."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''            if category(hi) == 3 and lo == torch.float64:''',
    '''            if category(hi) == 3 and lo == torch.float64 and not zero_dim_pair:'''), (
    '''    tiers = {2: [], 1: [], 0: []}''',
    '''    zero_dim_pair = all(isinstance(v, torch.Tensor) and v.dim() == 0 for v in (a, b))
    tiers = {2: [], 1: [], 0: []}'''))}
