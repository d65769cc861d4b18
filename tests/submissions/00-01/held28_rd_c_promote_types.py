"""Round 28: result_dtype does the within-tier step with PyTorch's own promotion table, reached through
`torch._C._VariableFunctions.promote_types` (the C binding behind `torch.promote_types`), so a check that
only watches the name `torch.promote_types` does not see it. Breaks "do not call `torch.result_type`,
`torch.promote_types` or PyTorch's own promotion code": wrong on every pair of one tier, e.g. a uint8
tensor with an int8 tensor (the value is right, the method is forbidden)."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''        if x == y:
            return x
''',
    '''        if x == y:
            return x
        if category(x) == category(y):
            return torch._C._VariableFunctions.promote_types(x, y)
'''))}
