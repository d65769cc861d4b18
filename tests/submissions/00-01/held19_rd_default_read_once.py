"""Round 19: the Python-number dtypes are read from torch.get_default_dtype() once, on the first call, and kept:
a later call under another default dtype still answers with the first one (the text: a float counts as
torch.get_default_dtype(), a complex as the complex type of that default)."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''    ints = (torch.uint8,''',
    '''    if not hasattr(result_dtype, "_default"):
        result_dtype._default = torch.get_default_dtype()
    ints = (torch.uint8,'''), (
    '''            tiers[0].append(torch.get_default_dtype())''',
    '''            tiers[0].append(result_dtype._default)'''), (
    '''            tiers[0].append(complex_of[torch.get_default_dtype()])''',
    '''            tiers[0].append(complex_of[result_dtype._default])'''))}
